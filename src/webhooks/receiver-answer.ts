// What a receiver answered, as `webhooks check` and `webhooks send` report it:
// the body is another party's bytes, so at most a few KiB of it are read
// (whatever it streams, memory stays bounded) and it is shown on one line
// with every control character escaped visibly, so that it cannot move the
// cursor, clear the screen or print a verdict of its own in a terminal.

/** How much of an answer's body is read: enough for an error message, never a download. */
const ANSWER_BYTES_READ = 4096;
/** How much of it a report shows. */
const SHOWN_CHARACTERS = 200;

/**
 * The first `ANSWER_BYTES_READ` bytes of the body at most; the rest is not
 * read, and the stream is cancelled so that the sender stops and the
 * connection is let go.
 */
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
export function printable(text: string): string {
  return text.replace(UNPRINTABLE, (char) => {
    const code = char.codePointAt(0)!;
    const hex = code.toString(16);
    return code <= 0xff ? `\\x${hex.padStart(2, '0')}` : code <= 0xffff ? `\\u${hex.padStart(4, '0')}` : `\\u{${hex}}`;
  });
}

/**
 * What the receiver said, for a report: the start of its body decoded as
 * UTF-8 (a broken sequence becomes U+FFFD), on one line, controls escaped,
 * cut to 200 characters.
 */
export async function answerText(response: Response, signal?: AbortSignal): Promise<string> {
  const bytes = await readAnswerStart(response, signal).catch(() => new Uint8Array());
  const said = [...new TextDecoder().decode(bytes).replace(/\s+/g, ' ').trim()];
  const cut = said.length > SHOWN_CHARACTERS || bytes.byteLength === ANSWER_BYTES_READ;
  return printable(cut ? `${said.slice(0, SHOWN_CHARACTERS).join('')}…` : said.join(''));
}
