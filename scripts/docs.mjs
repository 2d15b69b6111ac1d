// Renders the reference docs: generated/docs/<api>.html per API (Redocly
// build-docs, scripts inlined so the pages work offline) and an index page
// that links every API.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import { APIS } from './lib/apis.mjs';
import { runTool } from './lib/run.mjs';
import { runIfMain } from './lib/step.mjs';

const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

export async function docs(out) {
  const dir = path.join(out, 'docs');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const entries = await Promise.all(
    APIS.map(async (api) => {
      const bundled = path.join(out, 'openapi', `${api.name}.yaml`);
      const page = `${api.name}.html`;
      await runTool(
        'redocly',
        ['build-docs', bundled, '--inlineBundle', '--title', api.title, '-o', path.join(dir, page)],
        { quiet: true },
      );
      const { info } = parse(await readFile(bundled, 'utf8'));
      return { ...api, page, version: info.version };
    }),
  );
  await writeFile(path.join(dir, 'index.html'), indexPage(entries));
  console.log(`docs: ${entries.map((e) => e.page).join(', ')}, index.html`);
}

function indexPage(entries) {
  const items = entries
    .map(
      (e) => `    <li>
      <a href="./${e.page}">${escapeHtml(e.title)}</a> <span class="version">${escapeHtml(e.version)}</span>
      <p>${escapeHtml(e.summary)}</p>
    </li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>verification-contracts: API reference</title>
  <style>
    body { font-family: system-ui, sans-serif; max-width: 46rem; margin: 3rem auto; padding: 0 1rem; color: #1f2933; }
    h1 { font-size: 1.6rem; }
    ul { list-style: none; padding: 0; }
    li { border: 1px solid #d9e2ec; border-radius: 6px; padding: 0.8rem 1rem; margin: 0.8rem 0; }
    a { font-weight: 600; font-size: 1.1rem; color: #0b5fff; }
    .version { color: #627d98; font-size: 0.9rem; }
    p { margin: 0.3rem 0 0; }
  </style>
</head>
<body>
  <h1>Identity verification service: API reference</h1>
  <p>Generated from the OpenAPI documents of the verification-contracts package.</p>
  <ul>
${items}
  </ul>
</body>
</html>
`;
}

runIfMain(import.meta, docs);
