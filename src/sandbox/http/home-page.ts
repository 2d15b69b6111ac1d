// The sandbox's self-contained HTML pages, and the page at its root, with the documents at /openapi/<api>.json.
import { jsonAnswer, utf8Length, type DoorAnswer, type DoorRequest } from './door.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
code{background:#f2f4f7;padding:0 .25rem;border-radius:3px}dt{font-weight:600}dd{margin:0 0 .5rem}
label{display:block;margin:.5rem 0}input{font:inherit;padding:.25rem}
button{font:inherit;padding:.5rem 1rem;margin:.25rem .25rem 0 0;cursor:pointer}`;

/** A whole page (`body` is HTML, escaped where it holds data) that loads nothing from elsewhere and is never cached. */
export function htmlAnswer(
  status: number,
  title: string,
  body: string,
  headers: Record<string, string> = {},
): DoorAnswer {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${body}
</body>
</html>
`;
  return {
    status,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-length': String(utf8Length(html)),
      'content-security-policy':
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
      'cache-control': 'no-store',
      // No Referer (which carries the session token) leaves for another site; same-origin forms keep their Origin.
      'referrer-policy': 'same-origin',
      'x-content-type-options': 'nosniff',
      ...headers,
    },
    body: html,
  };
}

const DOCUMENTS = ['partner', 'v2', 'sandbox'] as const;

function homePage(url: string, homepage: string): string {
  const row = (what: string, paths: string, how: string) => `<tr><td>${what}</td><td>${paths}</td><td>${how}</td></tr>`;
  return `<p>A local, stateful sandbox of the identity verification service, for development and tests (never production). Requests and answers are checked against the service's documents; each change sends the webhooks the service would send.</p>
<table>
<thead><tr><th>What</th><th>Paths</th><th>Credential</th></tr></thead>
<tbody>
${row('Partner integration API', '<code>/partners</code>, <code>/verifications</code>, <code>/users</code>, …', '<code>X-Auth-Key</code> header')}
${row('v2 read API', '<code>/v2/verifications/</code>, <code>/v2/verifications/{id}</code>', '<code>Authorization: Bearer</code> header')}
${row('Sandbox control API', '<code>/_sandbox/…</code>', 'none; answers this machine only')}
${row("End user's page", '<code>/s/{verificationId}?token=…</code>', 'the <code>url</code> of a verification')}
</tbody>
</table>
<p>Every path follows one base URL, <code>${escapeHtml(url)}</code>: it is the <code>baseUrl</code> of <code>createPartnerClient</code>, <code>createV2Client</code> (whose paths already start with <code>/v2</code>) and <code>createSandboxClient</code> alike, and the <code>PARTNER_URL</code>, <code>V2_URL</code> and <code>SANDBOX_URL</code> the sandbox printed.</p>
<p>The credentials in force: <code>GET ${escapeHtml(url)}/_sandbox/credentials</code> (or the lines the sandbox printed when it started).</p>
<h2>Documents</h2>
<ul>
${DOCUMENTS.map((api) => `<li><a href="/openapi/${api}.json">/openapi/${api}.json</a> (also <code>@verification-service/contracts/openapi/${api}.yaml</code> in the installed package)</li>`).join('\n')}
</ul>
<p>Each control operation is described in the control API's document above; the sandbox guide of the <code>@verification-service/contracts</code> package walks through a session.</p>
<p>The service's reference, rendered: <a href="${escapeHtml(homepage)}">${escapeHtml(homepage)}</a>.</p>`;
}

/** The answer to GET / and to the documents; undefined for any other request. */
export function homePageAnswer(
  req: DoorRequest,
  url: string,
  documents: Record<(typeof DOCUMENTS)[number], unknown>,
  homepage: string,
): DoorAnswer | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const path = req.target.split('?')[0];
  if (path === '/') return htmlAnswer(200, 'Verification service sandbox', homePage(url, homepage));
  const document = DOCUMENTS.find((api) => path === `/openapi/${api}.json`);
  return document ? jsonAnswer(200, documents[document], { 'cache-control': 'no-store' }) : undefined;
}
