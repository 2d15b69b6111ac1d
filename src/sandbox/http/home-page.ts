// What a browser gets at the sandbox's root: a short page saying what runs
// here and where (each API, the control API, the end user's pages) and
// where the documents are; the bundled documents themselves at
// /openapi/<api>.json, so a tool or a viewer can load them from here.
import { jsonAnswer, type DoorAnswer, type DoorRequest } from './door.js';
import { escapeHtml, htmlAnswer, htmlPage } from './html.js';

const DOCUMENTS = ['partner', 'v2', 'sandbox'] as const;
const DOCUMENT_PATH = /^\/openapi\/(partner|v2|sandbox)\.json$/;

function homePage(url: string, homepage: string): string {
  const row = (what: string, paths: string, how: string) => `<tr><td>${what}</td><td>${paths}</td><td>${how}</td></tr>`;
  const base = `<code>${escapeHtml(url)}</code>`;
  return htmlPage(
    'Verification service sandbox',
    `<p>A local, stateful sandbox of the identity verification service, for development and tests (never production). Requests and answers are checked against the service's documents; each change sends the webhooks the service would send.</p>
<table>
<thead><tr><th>What</th><th>Paths</th><th>Credential</th></tr></thead>
<tbody>
${row('Partner integration API', '<code>/partners</code>, <code>/verifications</code>, <code>/users</code>, …', '<code>X-Auth-Key</code> header')}
${row('v2 read API', '<code>/v2/verifications/</code>, <code>/v2/verifications/{id}</code>', '<code>Authorization: Bearer</code> header')}
${row('Sandbox control API', '<code>/_sandbox/…</code>', 'none; answers this machine only')}
${row("End user's page", '<code>/s/{verificationId}?token=…</code>', 'the <code>url</code> of a verification')}
</tbody>
</table>
<p>Every path follows one base URL, ${base}: it is the <code>baseUrl</code> of <code>createPartnerClient</code>, <code>createV2Client</code> (whose paths already start with <code>/v2</code>) and <code>createSandboxClient</code> alike, and the <code>PARTNER_URL</code>, <code>V2_URL</code> and <code>SANDBOX_URL</code> the sandbox printed.</p>
<p>The credentials in force: <code>GET ${escapeHtml(url)}/_sandbox/credentials</code> (or the lines the sandbox printed when it started).</p>
<h2>Documents</h2>
<ul>
${DOCUMENTS.map((api) => `<li><a href="/openapi/${api}.json">/openapi/${api}.json</a> (also <code>@verification-service/contracts/openapi/${api}.yaml</code> in the installed package)</li>`).join('\n')}
</ul>
<p>Each control operation is described in the control API's document above; the sandbox guide of the <code>@verification-service/contracts</code> package walks through a session.</p>
<p>The service's reference, rendered: <a href="${escapeHtml(homepage)}">${escapeHtml(homepage)}</a>.</p>`,
  );
}

/** The answer to GET / and to the documents; undefined for any other request. */
export function homePageAnswer(req: DoorRequest, url: string, documents: Record<(typeof DOCUMENTS)[number], unknown>, homepage: string): DoorAnswer | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
  const path = req.target.split('?')[0];
  if (path === '/') return htmlAnswer(200, homePage(url, homepage));
  const document = DOCUMENT_PATH.exec(path)?.[1] as (typeof DOCUMENTS)[number] | undefined;
  return document ? jsonAnswer(200, documents[document], { 'cache-control': 'no-store' }) : undefined;
}
