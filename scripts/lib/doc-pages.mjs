// The docs site's own pages beside Redoc's: the index, the assumptions (from
// openapi/DECISIONS.md), the changelog and webhook delivery (the part of
// guides/webhooks.md marked published). They speak to partners: a text that
// names a repository file or "the contract" is refused at build time.
import { marked } from 'marked';
import { escapeHtml } from './try-it/panel.mjs';

/** Words a partner-facing text must not hold: repository paths and files, and "the/this contract". */
export const MAINTAINER_TALK =
  /DECISIONS\.md|\b(?:openapi|guides|scripts|src|test|generated)\/|\b[\w-]+\.(?:mjs|ts|md)\b|\b(?:this|the) contract\b|npm run /i;

/** The statement marker every description uses for a decision: `Assumed ([P1](assumptions.html#P1)): `. */
export const ASSUMED_MARKER = /Assumed \(\[([A-Z]+\d+)\]\(assumptions\.html#\1\)\): /g;

/**
 * The rows of the V and P tables of DECISIONS.md, as marked reads them (escaped pipes included).
 * @param {string} markdown
 * @returns {{ id: string, source: string, decision: string, why: string }[]}
 */
export function decisionRows(markdown) {
  return marked
    .lexer(markdown)
    .flatMap((token) => (token.type === 'table' ? token.rows.map((row) => row.map((cell) => cell.text)) : []))
    .filter(([id]) => /^[VP]\d+$/.test(id))
    .map(([id, source, decision, why]) => ({ id, source, decision, why }));
}

function page(title, body) {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)}</title>
  <style>
    body { font-family: system-ui, sans-serif; max-width: 50rem; margin: 3rem auto; padding: 0 1rem; color: #1f2933; line-height: 1.45; }
    h1 { font-size: 1.6rem; }
    h2 { font-size: 1.25rem; margin-top: 2rem; }
    ul.apis { list-style: none; padding: 0; }
    ul.apis li { border: 1px solid #d9e2ec; border-radius: 6px; padding: 0.8rem 1rem; margin: 0.8rem 0; }
    ul.apis a { font-weight: 600; font-size: 1.1rem; }
    a { color: #0b5fff; }
    .version { color: #627d98; font-size: 0.9rem; }
    ul.apis p { margin: 0.3rem 0 0; }
    code { background: #f0f4f8; padding: 0 0.2em; border-radius: 3px; overflow-wrap: anywhere; }
    pre { background: #f0f4f8; padding: 0.6rem 0.8rem; border-radius: 4px; overflow-x: auto; }
    pre code { padding: 0; }
    section.assumption { border-top: 1px solid #d9e2ec; padding: 0.4rem 0; }
    section.assumption:target { background: #fff8e1; }
    section.assumption h3 { margin: 0.4rem 0; font-size: 1rem; }
    dl { margin: 0; } dt { font-weight: 600; color: #486581; margin-top: 0.3rem; } dd { margin: 0 0 0 1rem; }
    table { border-collapse: collapse; margin: 1rem 0; font-size: 0.9rem; }
    th, td { border: 1px solid #d9e2ec; padding: 0.4rem 0.5rem; text-align: left; vertical-align: top; }
    th { background: #f0f4f8; }
  </style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** The docs index: every API page, the sandbox command, the changelog and the assumptions. */
export function indexPage(entries, { packageName }) {
  const items = entries
    .map(
      (e) => `    <li>
      <a href="./${e.page}">${escapeHtml(e.title)}</a> <span class="version">${escapeHtml(e.version)}</span>
      <p>${escapeHtml(e.summary)}</p>
    </li>`,
    )
    .join('\n');
  return page(
    'Identity verification service: API reference',
    `  <h1>Identity verification service: API reference</h1>
  <p>The reference of the service's interfaces, with a ready request for every operation.</p>
  <ul class="apis">
${items}
  </ul>
  <h2>Try it</h2>
  <p>Every operation in these pages has a <strong>Try it</strong> button, answered by the local sandbox in this package running in the page: a stand-in for the service, not the service, and nothing you send leaves the page.</p>
  <p>The same local sandbox answers the partner and v2 APIs on your machine and lets you act as the end user or reviewer through its control API:</p>
  <pre><code>npx ${escapeHtml(packageName)} sandbox</code></pre>
  <h2>More</h2>
  <ul>
    <li><a href="./changelog.html">Changelog</a>: what changed in each version of these API descriptions.</li>
    <li><a href="./assumptions.html">Assumptions</a>: where the service's documentation leaves something open, what the reference assumes and why.</li>
    <li><a href="./webhook-delivery.html">Webhook delivery</a>: what the service's documentation states about delivering webhooks, what it leaves for a receiver to handle (repeats, order), and what the local sandbox does.</li>
  </ul>`,
  );
}

/** Refuses a partner-facing text that speaks of repository files or of "the contract". */
function checkVoice(text, where) {
  const hit = text.match(MAINTAINER_TALK);
  if (hit) {
    throw new Error(
      `${where} says "${hit[0]}", which partners cannot follow; reword it for partners (name the service's documentation or the reference, not a repository file or "the contract").`,
    );
  }
}

/** The published list of assumptions: every V and P row of DECISIONS.md, its id as anchor. */
export function assumptionsPage(decisionsMarkdown, { packageName }) {
  // Rows listed under "Rows no description marks" assume nothing a description states.
  const unmarked = new Set([...decisionsMarkdown.matchAll(/^- ([VP]\d+): /gm)].map((m) => m[1]));
  const rows = decisionRows(decisionsMarkdown).filter((r) => !unmarked.has(r.id));
  if (rows.length === 0)
    throw new Error('openapi/DECISIONS.md has no V or P rows; the assumptions page would be empty.');
  const section = (title, prefix) => {
    const entries = rows
      .filter((r) => r.id.startsWith(prefix))
      .map((r) => {
        checkVoice(r.source, `DECISIONS.md row ${r.id} (source line)`);
        checkVoice(r.decision, `DECISIONS.md row ${r.id} (decision)`);
        // The reason is maintainers' reasoning; it is shown when it speaks to partners.
        const why = MAINTAINER_TALK.test(r.why) ? '' : `\n      <dt>Why</dt><dd>${marked.parseInline(r.why)}</dd>`;
        return `  <section class="assumption" id="${r.id}">
    <h3><a href="#${r.id}">${r.id}</a></h3>
    <dl>
      <dt>The service's documentation</dt><dd>${marked.parseInline(r.source)}</dd>
      <dt>The reference</dt><dd>${marked.parseInline(r.decision)}</dd>${why}
    </dl>
  </section>`;
      })
      .join('\n');
    return `  <h2>${title}</h2>\n${entries}`;
  };
  return page(
    'Assumptions in the API reference',
    `  <p><a href="./index.html">API reference</a></p>
  <h1>Assumptions in the API reference</h1>
  <p>The reference follows the service's documentation. Where that documentation leaves something open (a parameter name, a default, a success status), the reference decides as the service most plausibly behaves and marks the statement <strong>Assumed</strong>, with a link to its entry below. Each entry quotes the line of the documentation it answers (or says what is missing), what the reference takes as given, and why. Do not rely on an assumption more than on the documentation itself. Where an entry says what <em>the local sandbox in this package</em> does, it means the test double that the <code>${escapeHtml(packageName)}</code> package runs on your machine, not the service's sandbox environment.</p>
${section('Verification API v2', 'V')}
${section('Partner Integration API', 'P')}`,
  );
}

/** The changelog as a page: the release sections of CHANGELOG.md, under a partner-facing introduction. */
export function changelogPage(changelogMarkdown) {
  const start = changelogMarkdown.search(/^## /m);
  const releases = start < 0 ? '' : changelogMarkdown.slice(start);
  checkVoice(releases, 'CHANGELOG.md');
  return page(
    'Changelog: API reference',
    `  <p><a href="./index.html">API reference</a></p>
  <h1>Changelog</h1>
  <p>What changed in each version of these API descriptions, per API and per operation or webhook; breaking changes come first and are marked <strong>BREAKING</strong>.</p>
${marked.parse(releases)}`,
  );
}

/**
 * The webhook delivery page: the part of the webhooks guide marked published.
 * A link into another guide leads nowhere on the docs site, so its text stays
 * without it; a V or P row the text names becomes a link to its entry on the
 * assumptions page.
 */
export function webhookDeliveryPage(guideMarkdown) {
  const where = 'guides/webhooks.md';
  const part = /<!-- published: webhook-delivery\b[^>]*-->([\s\S]*?)<!-- \/published -->/.exec(guideMarkdown);
  if (!part)
    throw new Error(
      `${where} has no part marked <!-- published: webhook-delivery --> … <!-- /published -->; mark the part the docs publish as webhook-delivery.html.`,
    );
  const text = part[1]
    .trim()
    .replace(/\[([^\]]+)\]\((?!https?:|assumptions\.html#)[^)]*\)/g, '$1')
    .replace(/(?<![[#\w])([VP]\d+)\b(?!\])/g, '[$1](assumptions.html#$1)');
  checkVoice(text, `${where} (its part published as webhook-delivery.html)`);
  return page(
    'Webhook delivery: API reference',
    `  <p><a href="./index.html">API reference</a></p>
  <h1>Webhook delivery</h1>
${marked.parse(text)}
  <p>Receivers that do all of this, for Node and for fetch-style handlers, are in the Webhooks section of the <a href="./partner.html">Partner Integration API</a> reference.</p>`,
  );
}
