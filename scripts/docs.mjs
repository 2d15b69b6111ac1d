// Renders the reference docs: generated/docs/<api>.html per API (Redocly
// build-docs, scripts inlined so the pages work offline) and an index page
// that links every API. Each operation shows its code samples
// (generated/samples, by scripts/samples.mjs) as Redoc's x-codeSamples; they
// are added to a scratch copy of the bundle, not to the published one.
// `npm run dev` passes `only` to re-render just the APIs whose bundle changed.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { APIS } from './lib/apis.mjs';
import { runTool } from './lib/run.mjs';
import { runIfMain } from './lib/step.mjs';

const escapeHtml = (s) =>
  String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

export async function docs(out, { only } = {}) {
  const dir = path.join(out, 'docs');
  if (!only) await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'vc-docs-'));
  try {
    const entries = await Promise.all(
      APIS.map(async (api) => {
        const doc = JSON.parse(await readFile(path.join(out, 'openapi', `${api.name}.json`), 'utf8'));
        const page = `${api.name}.html`;
        if (only && !only.includes(api.name)) return { ...api, page, version: doc.info.version, kept: true };
        const samples = JSON.parse(await readFile(path.join(out, 'samples', `${api.name}.json`), 'utf8'));
        const source = path.join(scratch, `${api.name}.json`);
        await writeFile(source, JSON.stringify(withCodeSamples(doc, samples)));
        const file = path.join(dir, page);
        await runTool('redocly', ['build-docs', source, '--inlineBundle', '--title', api.title, '-o', file], { quiet: true });
        await writeFile(file, offline(await readFile(file, 'utf8')));
        return { ...api, page, version: doc.info.version };
      }),
    );
    await writeFile(path.join(dir, 'index.html'), indexPage(entries));
    console.log(`docs: ${entries.filter((e) => !e.kept).map((e) => e.page).join(', ')}, index.html`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function withCodeSamples(doc, samples) {
  const copy = structuredClone(doc);
  for (const { method, path: route, samples: list } of samples) {
    const operation = copy.paths?.[route]?.[method];
    if (!operation) throw new Error(`generated/samples names ${method.toUpperCase()} ${route}, which the bundle lacks; run the samples step`);
    operation['x-codeSamples'] = list;
  }
  return copy;
}

// Redoc's "API docs by" badge loads its logo from Redocly's CDN, the one
// request the inlined page still makes; the logo is inlined as text instead,
// so the page works offline and asks nothing of any other host.
const LOGO = (full) =>
  `data:image/svg+xml,${encodeURIComponent(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${full ? 64 : 16}" height="16"><text x="0" y="12" font-family="sans-serif" font-size="12" fill="#5c6166">${full ? 'Redocly' : 'R'}</text></svg>`,
  )}`;

function offline(html) {
  const out = html
    .replaceAll('https://cdn.redoc.ly/redoc/logo-mini-full.svg', LOGO(true))
    .replaceAll('https://cdn.redoc.ly/redoc/logo-mini.svg', LOGO(false));
  if (out.includes('cdn.redoc.ly')) throw new Error('the rendered docs still load from cdn.redoc.ly; update scripts/docs.mjs');
  return out;
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
