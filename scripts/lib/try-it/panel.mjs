// The Try it panel: one side panel over the reference page (outside Redoc's
// tree, so a re-render never takes it away) with the chosen operation's form,
// its answer, and the webhooks the in-page sandbox emitted.
const PANEL_ID = 'try-it-panel';

const REASONS = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  303: 'See Other',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
};

const STYLE = `
#${PANEL_ID} { position: fixed; top: 0; right: 0; bottom: 0; width: min(560px, 100vw); z-index: 10000; overflow: auto;
  box-sizing: border-box; padding: 16px 20px 32px; background: #fff; color: #1f2328; border-left: 1px solid #d0d7de;
  box-shadow: -4px 0 16px rgba(0,0,0,.15); font: 14px/1.45 system-ui, sans-serif; }
#${PANEL_ID} h2 { font-size: 18px; margin: 0 0 8px; padding-right: 64px; }
#${PANEL_ID} h3 { font-size: 15px; margin: 20px 0 6px; }
#${PANEL_ID} .try-it-close { position: absolute; top: 14px; right: 16px; }
#${PANEL_ID} .try-it-note { background: #fff4d6; border: 1px solid #e0b64a; padding: 8px 10px; margin: 0 0 12px; }
#${PANEL_ID} label { display: block; margin: 8px 0 2px; font-weight: 600; }
#${PANEL_ID} label small { font-weight: 400; color: #57606a; }
#${PANEL_ID} input, #${PANEL_ID} textarea { display: block; width: 100%; box-sizing: border-box; margin-top: 2px;
  font: 13px/1.4 ui-monospace, monospace; padding: 4px 6px; }
#${PANEL_ID} pre { background: #f6f8fa; border: 1px solid #d0d7de; padding: 8px; white-space: pre-wrap;
  overflow-wrap: anywhere; font: 12px/1.4 ui-monospace, monospace; margin: 4px 0; }
#${PANEL_ID} dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 4px 0;
  font: 12px/1.4 ui-monospace, monospace; }
#${PANEL_ID} dd { margin: 0; overflow-wrap: anywhere; }
#${PANEL_ID} button { font: 600 14px system-ui, sans-serif; padding: 5px 14px; cursor: pointer; color: #1f2328;
  background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 4px; }
#${PANEL_ID} #try-it-send { color: #fff; background: #1f6feb; border-color: #1f6feb; }
#${PANEL_ID} button:disabled { opacity: .6; cursor: progress; }
#${PANEL_ID} summary { cursor: pointer; font-family: ui-monospace, monospace; }
`;

export const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

/** Who answers, and where the service is: from the document's own Servers entry. */
function honestNote(api, doc) {
  const server = `<code>${escapeHtml(doc.servers?.[0]?.url ?? '')}</code>`;
  const service = {
    sandbox: 'This control API belongs to the local sandbox alone: the service has none.',
    partner: `The service's own sandbox environment is at the base address your provider gives you (${server} in this reference's Servers).`,
    v2: `The service is at the base address your provider gives you (${server} in this reference's Servers).`,
  }[api];
  return `Answered by the local sandbox in this package, running in this page — not by the service. ${service} Nothing you send here leaves this page.`;
}

function panelElement() {
  if (!document.getElementById(PANEL_ID)) {
    document.head.insertAdjacentHTML('beforeend', `<style>${STYLE}</style>`);
    document.body.insertAdjacentHTML('beforeend', `<aside id="${PANEL_ID}" aria-label="Try it"></aside>`);
  }
  return document.getElementById(PANEL_ID);
}

/** How many forms were asked for: a form whose sandbox started after a newer one was asked for is not shown. */
let asked = 0;

/** Shows `form` (code-samples.mjs `tryItForm`) in the panel, answered by the in-page sandbox of `session` (a promise). */
export async function showPanel({ api, doc, form, session: starting }) {
  const turn = ++asked;
  const panel = panelElement();
  panel.hidden = false;
  panel.innerHTML = `<h2>Try it: ${escapeHtml(form.summary)}</h2>
<button type="button" class="try-it-close">Close</button>
<p class="try-it-note" role="note">${honestNote(api, doc)}</p>
<p id="try-it-starting">Starting the local sandbox in this page…</p>`;
  panel.querySelector('.try-it-close').addEventListener('click', () => panel.setAttribute('hidden', ''));
  const session = await starting;
  const credentials = await session.credentials();
  if (turn !== asked) return;
  panel.querySelector('#try-it-starting').remove();
  const sections = '<section id="try-it-answer" hidden></section><section id="try-it-webhooks"></section>';
  panel.insertAdjacentHTML('beforeend', formHtml(form, session.known, credentials) + sections);
  const list = panel.querySelector('#try-it-webhooks');
  const renderWebhooks = () => {
    list.innerHTML = webhooksHtml(session.webhooks);
  };
  renderWebhooks();
  session.setWebhookListener(renderWebhooks);
  panel.querySelector('#try-it-form').addEventListener('submit', (event) => {
    event.preventDefault();
    send(panel, api, form, session).catch((err) => {
      const answer = panel.querySelector('#try-it-answer');
      answer.hidden = false;
      answer.innerHTML = `<p role="alert">The local sandbox in this page failed to answer: ${escapeHtml(err.message)}. Reload the page to start it again.</p>`;
    });
  });
  panel.querySelector('#try-it-form [name="body"], #try-it-form input')?.focus();
}

function formHtml(form, known, credentials) {
  const params = form.pathParameters
    .map(({ name, example }) => {
      const held = known.get(name);
      const note = held ? 'an id the local sandbox in this page holds' : "the operation's example";
      return `<label>${escapeHtml(name)} <small>(${note})</small><input name="path:${escapeHtml(name)}" value="${escapeHtml(held ?? example)}" required></label>`;
    })
    .join('\n');
  const held = form.credential?.kind === 'accessToken' ? `Bearer ${credentials.accessToken}` : credentials.authKey;
  const credential = form.credential
    ? `<label>${escapeHtml(form.credential.header)} <small>(from GET /_sandbox/credentials of the sandbox in this page)</small><input name="credential" value="${escapeHtml(held)}"></label>`
    : '';
  // Opened with the required parameters only: the example's filters name records the page's sandbox does not hold.
  const hint =
    form.example === form.query
      ? form.query
        ? "the operation's example"
        : 'the example has none'
      : `empty shows all the sandbox in this page holds; the reference's example: ${escapeHtml(form.example)}`;
  const query = `<label>Query <small>(as it follows the ?; ${hint})</small><input name="query" value="${escapeHtml(form.query)}" placeholder="${escapeHtml(form.example)}"></label>`;
  const body =
    form.body === undefined
      ? ''
      : `<label>Body <small>(JSON, the operation's example)</small><textarea name="body" rows="14" spellcheck="false">${escapeHtml(form.body)}</textarea></label>`;
  return `<form id="try-it-form" data-operation="${escapeHtml(form.operationId)}">
<p><strong>${form.method}</strong> <code>${escapeHtml(form.path)}</code></p>
${params}
${query}
${credential}
${body}
<p><button type="submit" id="try-it-send">Send</button></p>
</form>`;
}

async function send(panel, api, form, session) {
  const fields = new FormData(panel.querySelector('#try-it-form'));
  const path = form.path.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(fields.get(`path:${name}`) ?? ''));
  const headers = {};
  if (form.credential) headers[form.credential.header] = fields.get('credential') ?? '';
  const body = form.body === undefined ? undefined : String(fields.get('body') ?? '');
  // The partner document asks for the JSON type on every call, GETs too; the others take it with a body.
  if (body !== undefined || api === 'partner') headers['content-type'] = 'application/json';
  const button = panel.querySelector('#try-it-send');
  button.disabled = true;
  try {
    const query = String(fields.get('query') ?? '').replace(/^\?/, '');
    const answer = await session.send({ method: form.method, path, query, headers, body: body || undefined });
    showAnswer(panel, answer, session);
  } finally {
    button.disabled = false;
  }
}

function showAnswer(panel, answer, session) {
  const section = panel.querySelector('#try-it-answer');
  section.hidden = false;
  // Every header the sandbox sets but the length: content-type, location, x-sandbox-reason and the like.
  const headers = answer.headers
    .filter(([name]) => name !== 'content-length')
    .map(([name, value]) => `<dt>${escapeHtml(name)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('');
  const shown = answer.json === undefined ? answer.text : JSON.stringify(answer.json, null, 2);
  const pageUrl = answer.json?.url;
  const opens = typeof pageUrl === 'string' && pageUrl.startsWith(`${session.sandbox.url}/s/`);
  section.innerHTML = `<h3>Answer</h3>
<p id="try-it-status" data-status="${answer.status}"><strong>${answer.status} ${REASONS[answer.status] ?? ''}</strong></p>
<dl id="try-it-headers">${headers}</dl>
<pre id="try-it-body">${escapeHtml(shown)}</pre>
${opens ? '<p><button type="button" id="try-it-open-page">Open the end user\'s page (its <code>url</code>) in a new tab</button> <small>served by the same sandbox in this page</small></p>' : ''}`;
  const blocked =
    '<p role="alert">The browser blocked the new tab: allow pop-ups for this page, then press the button again.</p>';
  section.querySelector('#try-it-open-page')?.addEventListener('click', () => {
    if (!session.openEndUserPage(pageUrl)) section.insertAdjacentHTML('beforeend', blocked);
  });
}

function webhooksHtml(webhooks) {
  const item = (w) => `<li data-event-type="${escapeHtml(w.eventType)}"><details>
<summary>${escapeHtml(w.eventType)} <small>${escapeHtml(w.eventId)}</small></summary>
<dl><dt>POST</dt><dd>${escapeHtml(w.target)}</dd><dt>X-SIGNATURE</dt><dd class="try-it-signature">${escapeHtml(w.signature)}</dd></dl>
<pre class="try-it-webhook-body">${escapeHtml(w.body)}</pre></details></li>`;
  const items = [...webhooks].reverse().map(item).join('\n');
  return `<h3>Webhooks the local sandbox emitted (${webhooks.length})</h3>
<p><small>Nothing can receive a webhook from this page, so each is listed as it would be sent to the partner's webhookUrl: the body byte for byte, and X-SIGNATURE, the HMAC-SHA256 of that body with the active auth key. Newest first (the oldest are the seed's).</small></p>
<ul id="try-it-webhook-list">${items}</ul>`;
}
