// Builds the reference's "Try it": the in-page sandbox as one classic script
// (generated/docs/try-it/sandbox.js, loaded on a reader's first press), and
// the few hundred bytes each API page carries from its first load: a style
// and a script adding a Try it button to each operation Redoc renders.
import path from 'node:path';
import { build, transform } from 'esbuild';
import { replaceFile } from '../replace-file.mjs';
import { operationsOf } from '../code-samples.mjs';

/** Where the in-page sandbox is written, relative to the docs folder (the pages load it from there). */
export const TRY_IT_SCRIPT = 'try-it/sandbox.js';

const MINIFIED = { minify: true, target: 'es2022', legalComments: 'none' };

/** Bundles the in-page sandbox into `docsDir`/try-it/sandbox.js. */
export async function buildTryItSandbox(docsDir) {
  const result = await build({
    entryPoints: [path.join(import.meta.dirname, 'in-page.mjs')],
    bundle: true,
    // A classic script, not a module: a page opened from disk (file://) may load it too.
    format: 'iife',
    platform: 'browser',
    ...MINIFIED,
    write: false,
    logLevel: 'silent',
  });
  // Replaced in one rename, as the pages are: `npm run dev` may be serving it.
  await replaceFile(path.join(docsDir, TRY_IT_SCRIPT), result.outputFiles[0].contents);
}

// Redoc marks each operation's section `data-item-kind="httpItem"` with
// `data-section-id` ending in the operationId in lower case; the button goes
// first in its middle panel, above the heading. Sections render as they come
// into view, so a MutationObserver adds the buttons as they appear.
function addTryItButtons(config) {
  let loading;
  const load = () => {
    loading ??= new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = config.script;
      script.onload = () => resolve(globalThis.verificationTryIt);
      script.onerror = () => {
        loading = undefined;
        reject(new Error(`${config.script} did not load; reload the page and press Try it again`));
      };
      document.head.append(script);
    });
    return loading;
  };
  const press = (button) => {
    button.disabled = true;
    // A failure said after an earlier press goes; a new one is said again below.
    if (button.nextElementSibling?.classList.contains('try-it-error')) button.nextElementSibling.remove();
    load()
      .then((tryIt) => tryIt.open(config.api, button.dataset.operation))
      .catch((err) => {
        button.insertAdjacentHTML('afterend', '<span class="try-it-error" role="alert"></span>');
        button.nextElementSibling.textContent = `Try it failed: ${err.message}`;
      })
      .finally(() => button.removeAttribute('disabled'));
  };
  const addButtons = () => {
    for (const section of document.querySelectorAll('[data-item-kind="httpItem"][data-section-id]')) {
      const operationId = config.operations[section.getAttribute('data-section-id').split('/').pop()];
      const panel = section.querySelector('[data-testid="middle-panel"]');
      if (!operationId || !panel || panel.querySelector(':scope > .try-it-button')) continue;
      const title = 'Send this request to the local sandbox in this package, running in this page';
      const button = `<button type="button" class="try-it-button" data-operation="${operationId}" title="${title}">`;
      panel.insertAdjacentHTML('afterbegin', `${button}Try it</button>`);
      panel.firstElementChild.addEventListener('click', (event) => press(event.currentTarget));
    }
  };
  new MutationObserver(addButtons).observe(document.body, { childList: true, subtree: true });
  addButtons();
}

const BUTTON_STYLE = `<style id="try-it-style">
.try-it-button { align-self: flex-start; width: auto; margin: 0 0 12px; padding: 4px 14px; font: 600 13px system-ui, sans-serif; color: #fff;
  background: #1f6feb; border: 0; border-radius: 4px; cursor: pointer; }
.try-it-button:disabled { opacity: .6; cursor: progress; }
.try-it-error { margin-left: 8px; color: #b42318; font: 13px system-ui, sans-serif; }
</style>`;

/** What an API page gains on its first load: the button style and script, with the page's operations. */
export async function tryItPageParts(api, doc) {
  const operations = Object.fromEntries(
    operationsOf(doc).map(({ operationId }) => [operationId.toLowerCase(), operationId]),
  );
  const config = { api, script: TRY_IT_SCRIPT, operations };
  const { code } = await transform(`(${addTryItButtons})(${JSON.stringify(config)});`, MINIFIED);
  return `${BUTTON_STYLE}\n<script id="try-it-buttons">${code.trim()}</script>`;
}

/** The page with the Try it parts before `</body>` (once; a page without one is an error naming the fix). */
export function withTryIt(html, parts) {
  const at = html.lastIndexOf('</body>');
  if (at === -1)
    throw new Error('the rendered docs have no </body> to add Try it to; update scripts/lib/try-it/build.mjs');
  return `${html.slice(0, at)}${parts}\n${html.slice(at)}`;
}
