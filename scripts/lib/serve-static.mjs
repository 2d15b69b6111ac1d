// A static file server for one folder on 127.0.0.1: the rendered docs of
// `npm run dev`, which adds its reload channel through `handle` and `html`.
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

/**
 * `port` 0 lets the OS choose; `handle(req, res)` answers first and returns
 * true when it did; `html(text)` rewrites each HTML page as it is sent.
 */
export async function serveStatic(folder, { port = 0, handle, html } = {}) {
  const root = path.resolve(folder);
  const server = createServer(async (req, res) => {
    if (handle?.(req, res)) return;
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
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    if (html && path.extname(file) === '.html') {
      const text = html(await readFile(file, 'utf8'));
      res.writeHead(200, { 'Content-Type': type, 'Cache-Control': 'no-store' }).end(text);
      return;
    }
    res.writeHead(200, { 'Content-Type': type });
    createReadStream(file).pipe(res);
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
