// Renders the reference: generated/docs/<api>.html per API (Redocly
// build-docs, inlined so the pages work offline) with each operation's code
// samples and a Try it button, and the site's own pages (lib/doc-pages.mjs).
// Each page replaces the old one in a rename, so the page `npm run dev`
// serves is never missing or half written; dev passes `only` to re-render
// the APIs whose bundle changed.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { APIS } from './lib/apis.mjs';
import { assumptionsPage, changelogPage, indexPage, webhookDeliveryPage } from './lib/doc-pages.mjs';
import { ROOT } from './lib/paths.mjs';
import { removeAllBut, replaceFile } from './lib/replace-file.mjs';
import { runTool } from './lib/run.mjs';
import { runIfMain } from './lib/step.mjs';
import { buildTryItSandbox, tryItPageParts, withTryIt } from './lib/try-it/build.mjs';

export async function docs(out, { only } = {}) {
  const dir = path.join(out, 'docs');
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'vc-docs-'));
  try {
    await buildTryItSandbox(dir);
    const entries = await Promise.all(
      APIS.map(async (api) => {
        const doc = JSON.parse(await readFile(path.join(out, 'openapi', `${api.name}.json`), 'utf8'));
        const page = `${api.name}.html`;
        if (only && !only.includes(api.name)) return { ...api, page, version: doc.info.version, kept: true };
        const samples = JSON.parse(await readFile(path.join(out, 'samples', `${api.name}.json`), 'utf8'));
        const source = path.join(scratch, `${api.name}.json`);
        await writeFile(source, JSON.stringify(withCodeSamples(doc, samples)));
        const rendered = path.join(scratch, page);
        const args = ['build-docs', source, '--inlineBundle', '--title', api.title, '-o', rendered];
        await runTool('redocly', args, { quiet: true });
        const html = withTryIt(offline(await readFile(rendered, 'utf8')), await tryItPageParts(api.name, doc));
        await replaceFile(path.join(dir, page), html);
        return { ...api, page, version: doc.info.version };
      }),
    );
    const read = (file) => readFile(path.join(ROOT, file), 'utf8');
    const { name: packageName } = JSON.parse(await read('package.json'));
    const site = {
      'assumptions.html': assumptionsPage(await read('openapi/DECISIONS.md'), { packageName }),
      'changelog.html': changelogPage(await read('CHANGELOG.md')),
      'webhook-delivery.html': webhookDeliveryPage(await read('guides/webhooks.md')),
      'index.html': indexPage(entries, { packageName }),
    };
    for (const [page, html] of Object.entries(site)) await replaceFile(path.join(dir, page), html);
    const sitePages = Object.keys(site);
    if (!only) await removeAllBut(dir, [...entries.map((e) => e.page), ...sitePages]);
    console.log(`docs: ${[...entries.filter((e) => !e.kept).map((e) => e.page), ...sitePages].join(', ')}`);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The bundle with each operation's samples (generated/samples, built from the same bundle before). */
function withCodeSamples(doc, samples) {
  const copy = structuredClone(doc);
  for (const { method, path: route, samples: list } of samples) {
    const operation = copy.paths?.[route]?.[method];
    // Samples older than the bundle (a build run with --only) name what it may lack.
    if (!operation)
      throw new Error(
        `generated/samples names ${method.toUpperCase()} ${route}, which the bundle lacks; run the samples step`,
      );
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

// Redoc shows code samples with \`white-space: pre\` and its copy button laid
// over the code's top right corner: a long line is cut off at the panel's
// edge, and a long first line runs under the button. Samples wrap instead
// (the copy button still copies the text as written), and the button gets a
// row of its own above the code.
const SAMPLE_CSS = `<style id="vc-samples">
pre[data-testid="source-code"] { white-space: pre-wrap !important; overflow-wrap: anywhere !important; }
[data-component-name="CodeBlock/CodeBlockControls"] { position: static !important; }
</style>`;

function offline(html) {
  const out = html
    .replaceAll('https://cdn.redoc.ly/redoc/logo-mini-full.svg', LOGO(true))
    .replaceAll('https://cdn.redoc.ly/redoc/logo-mini.svg', LOGO(false))
    .replace('</head>', `${SAMPLE_CSS}\n</head>`);
  if (out.includes('cdn.redoc.ly'))
    throw new Error('the rendered docs still load from cdn.redoc.ly; update scripts/docs.mjs');
  if (!out.includes('id="vc-samples"'))
    throw new Error('the rendered docs have no </head> to add the sample styles to; update scripts/docs.mjs');
  return out;
}

runIfMain(import.meta, docs);
