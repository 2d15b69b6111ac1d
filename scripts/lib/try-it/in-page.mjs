// The reference's "Try it" (generated/docs/try-it/sandbox.js, one classic
// script loaded on the first press): the package's sandbox started in the
// page itself (createSandboxFetch: no port, nothing sent over the network),
// seeded, answering each form; a fetch of the page's own records its
// webhooks for the panel. Forms are read from the documents it checks against.
import { documents } from '../../../generated/validators/sandbox-contract.js';
import { createSandboxFetch } from '../../../src/sandbox/fetch.ts';
import { tryItForm } from '../code-samples.mjs';
import { openEndUserPage } from './end-user-window.mjs';
import { showPanel } from './panel.mjs';

/** Where the sandbox sends webhooks: a name that can never resolve; the page's own fetch receives each one. */
const IN_PAGE_WEBHOOK_URL = 'https://reference-page.invalid/webhooks';

/** The in-page sandbox, started on the first press: every form of the page shares its state. */
let session;

async function startSession() {
  const webhooks = [];
  // The panel shows one list at a time: the one it rendered last is told of each webhook.
  let onWebhook = () => undefined;
  const sandbox = await createSandboxFetch({
    webhookUrl: IN_PAGE_WEBHOOK_URL,
    // Every delivery, to any webhookUrl a form sets (PUT /partners), lands here and is answered 200.
    fetch: async (request) => {
      const body = await request.text();
      const { eventType, eventId } = JSON.parse(body);
      webhooks.push({ eventType, eventId, target: request.url, signature: request.headers.get('x-signature'), body });
      onWebhook();
      return new Response(null, { status: 200 });
    },
  });
  // The ids a path parameter opens with: the last the sandbox made of each kind, the seed's first.
  const known = new Map();
  /** Sends a request to the in-page sandbox; the answer, its body read. */
  const send = async ({ method, path, query, headers, body }) => {
    const target = sandbox.url + path + (query ? `?${query}` : '');
    const response = await sandbox.fetch(new Request(target, { method, headers, body }));
    const text = await response.text();
    const answer = { status: response.status, headers: [...response.headers], text, json: undefined };
    try {
      answer.json = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON (an HTML page or plain text): shown as text.
    }
    rememberIds(known, method, path, answer);
    return answer;
  };
  const seed = { method: 'POST', path: '/_sandbox/seed', headers: { 'content-type': 'application/json' }, body: '{}' };
  const { json: seeded } = await send(seed);
  known.set('verificationId', seeded.verificationIds[0]).set('userId', seeded.userIds[0]);
  return {
    sandbox,
    known,
    webhooks,
    /** Calls `listener` after each webhook the sandbox sends, instead of the one set before. */
    setWebhookListener(listener) {
      onWebhook = listener;
    },
    /** The credentials the sandbox holds now (a key rotated by a form included), as `GET /_sandbox/credentials` answers. */
    credentials: async () => (await send({ method: 'GET', path: '/_sandbox/credentials' })).json,
    send,
    openEndUserPage: (address) => openEndUserPage(sandbox, address),
  };
}

/** A create (`POST /verifications`, …) answered with an `id`: the id forms of that kind open with next. */
function rememberIds(known, method, path, answer) {
  if (method !== 'POST' || answer.status >= 300 || typeof answer.json?.id !== 'string') return;
  const names = path.split('/').filter((part) => part && !part.includes('{'));
  const collection = names.at(-1) ?? '';
  if (collection.endsWith('s')) known.set(`${collection.slice(0, -1)}Id`, answer.json.id);
}

/** Opens the Try it panel of one operation of this page's API. */
async function open(api, operationId) {
  const doc = documents[api];
  session ??= startSession();
  await showPanel({ api, doc, form: tryItForm(doc, operationId), session });
}

globalThis.verificationTryIt = { open };
