// A static file server for one folder on 127.0.0.1 (for checking the
// rendered docs in a browser): known content types, 404 for anything
// missing or outside the folder.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';

const TYPES = { '.html': 'text/html; charset=utf-8', '.json': 'application/json', '.yaml': 'application/yaml', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.svg': 'image/svg+xml' };

export async function serveStatic(folder) {
  const root = path.resolve(folder);
  const server = createServer(async (req, res) => {
    let file;
    try {
      const { pathname } = new URL(req.url ?? '/', 'http://127.0.0.1');
      file = path.resolve(root, `.${decodeURIComponent(pathname)}`);
      if (file !== root && !file.startsWith(root + path.sep)) throw new Error('outside');
      if ((await stat(file)).isDirectory()) file = path.join(file, 'index.html');
      await stat(file);
    } catch {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
