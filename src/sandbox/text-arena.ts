// Texts the sandbox keeps for as long as it runs (the payload of every
// webhook it recorded), stored as UTF-8 in large buffers outside the
// JavaScript heap: the garbage collector never copies or scans them, which
// at 100,000 verifications is most of what a create would cost it.

/** Bytes per buffer; no text kept here comes near it (request bodies are bounded far lower). */
const CHUNK = 1 << 20;

/** Where a kept text is: its first byte across all buffers, and its length in bytes. */
export interface TextRef {
  at: number;
  bytes: number;
}

export class TextArena {
  private readonly chunks: Buffer[] = [];
  private used = CHUNK;

  /** Keeps a text; answers where it is. */
  put(text: string): TextRef {
    const bytes = Buffer.byteLength(text);
    if (bytes > CHUNK) throw new RangeError(`a kept text is ${bytes} bytes, more than ${CHUNK}`);
    if (this.used + bytes > CHUNK) {
      this.chunks.push(Buffer.allocUnsafeSlow(CHUNK));
      this.used = 0;
    }
    const chunk = this.chunks.length - 1;
    this.chunks[chunk].write(text, this.used);
    const ref = { at: chunk * CHUNK + this.used, bytes };
    this.used += bytes;
    return ref;
  }

  get({ at, bytes }: TextRef): string {
    const offset = at % CHUNK;
    return this.chunks[(at - offset) / CHUNK].toString('utf8', offset, offset + bytes);
  }
}
