// A webhook POSTed as the service sends it (no redirect followed, a deadline per answer), and what the receiver
// answered: another party's bytes, so a few KiB at most are read, shown on one line with control characters escaped.
import type { WebhookCheckAnswer, WebhookHandler } from './check.js';
import type { Delivery } from './check-cases.js';

/** How much of an answer's body is read: enough for an error message, never a download. */
const ANSWER_BYTES_READ = 4096;
/** How much of it a report shows. */
const SHOWN_CHARACTERS = 200;

/** The first `ANSWER_BYTES_READ` bytes of the body at most; the stream is then cancelled, so the sender stops. */
async function readAnswerStart(response: Response, signal?: AbortSignal): Promise<Uint8Array> {
  if (!response.body) return new Uint8Array();
  const reader = response.body.getReader();
  // A body that stalls past the deadline is cancelled too (a fetch's own is, a handler's is not).
  const stop = () => reader.cancel().catch(() => {});
  signal?.addEventListener('abort', stop, { once: true });
  const start = new Uint8Array(ANSWER_BYTES_READ);
  let length = 0;
  try {
    while (length < ANSWER_BYTES_READ) {
      const { done, value } = await reader.read();
      if (done) break;
      const taken = value.subarray(0, ANSWER_BYTES_READ - length);
      start.set(taken, length);
      length += taken.byteLength;
    }
  } finally {
    signal?.removeEventListener('abort', stop);
    // Ends a body still streaming; an error of the cancel itself changes nothing read.
    stop();
  }
  return start.subarray(0, length);
}

// Controls (C0, DEL and C1: ESC, CSI, BEL, CR, …) and invisible format characters (the marks that reorder text on screen).
const UNPRINTABLE = /[\p{Cc}\p{Cf}]/gu;

/** `text` with each control or format character written out (`\x1b`, `\u202e`) instead of sent to the terminal. */
function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => {
    const code = char.codePointAt(0)!;
    const hex = code.toString(16);
    return code <= 0xff ? `\\x${hex.padStart(2, '0')}` : code <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`;
  });
}

/** What the receiver said: the start of its body as UTF-8, on one line, controls escaped, cut to 200 characters. */
async function answerText(response: Response, signal?: AbortSignal): Promise<string> {
  const bytes = await readAnswerStart(response, signal).catch(() => new Uint8Array());
  const said = [...new TextDecoder().decode(bytes).replace(/\s+/g, ' ').trim()];
  const cut = said.length > SHOWN_CHARACTERS || bytes.byteLength === ANSWER_BYTES_READ;
  return printable(cut ? `${said.slice(0, SHOWN_CHARACTERS).join('')}…` : said.join(''));
}

/**
 * POSTs a webhook as the service does: the answer, or why there is none, within `timeoutMs` whatever the handler does
 * with the abort. Throws when the first request (`first`) to a URL cannot connect.
 */
export async function deliver(
  target: string | WebhookHandler,
  delivery: Pick<Delivery, 'body' | 'signature'>,
  timeoutMs: number,
  first: boolean,
): Promise<WebhookCheckAnswer> {
  // The deadline aborts a fetch; a handler that ignores the abort is left behind by the race below.
  const signal = AbortSignal.timeout(timeoutMs);
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (delivery.signature !== undefined) headers['X-SIGNATURE'] = delivery.signature;
  // Never a redirect followed: a 3xx is the answer, and nothing goes to another address.
  const init: RequestInit = { method: 'POST', headers, body: delivery.body, redirect: 'manual', signal };
  const deadline = new Promise<'timeout'>((resolve) => signal.addEventListener('abort', () => resolve('timeout')));
  const answer = (async (): Promise<WebhookCheckAnswer> => {
    let response: Response;
    try {
      response =
        typeof target === 'string'
          ? await fetch(target, init)
          : await target(new Request('http://localhost/webhooks', init));
    } catch (err) {
      if (signal.aborted) return { status: null, detail: 'no answer in time' };
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const reason = cause?.code ?? cause?.message ?? (err as Error).message;
      if (typeof target === 'string' && first)
        throw new Error(`cannot reach ${target} (${reason}): is the receiver running there?`);
      return {
        status: null,
        detail:
          typeof target === 'string'
            ? `the connection failed (${reason})`
            : `the handler threw: ${printable((err as Error)?.message ?? String(err))}`,
      };
    }
    // A few KiB at most, whatever the receiver streams, and no control character of its own.
    return { status: response.status, detail: await answerText(response, signal) };
  })();
  try {
    const settled = await Promise.race([answer, deadline]);
    return settled === 'timeout' ? { status: null, detail: `no answer within ${timeoutMs / 1000} s` } : settled;
  } finally {
    // An answer that comes after the deadline is dropped, and so is its error.
    answer.catch(() => {});
  }
}
