// Texts the sandbox keeps for as long as it runs (the payload of every
// webhook it recorded), stored as UTF-8 in large buffers outside the
// JavaScript heap: the garbage collector never copies or scans them, which
// at 100,000 verifications is most of what a create would cost it.

/** Bytes per shared buffer; a text that might not fit one gets its own. */
const CHUNK = 1 << 20;

/** Where a kept text is: its buffer, where it starts there and its length, all in bytes. */
export interface TextRef {
  chunk: number;
  offset: number;
  bytes: number;
}

export class TextArena {
  private readonly chunks: Buffer[] = [];
  private used = CHUNK;

  /** Keeps a text; answers where it is (small integers, which the records holding them store inline). */
  put(text: string): TextRef {
    // Room for the longest UTF-8 the text could be (3 bytes per UTF-16 unit), so it is written without being measured first.
    const most = text.length * 3;
    if (most > CHUNK) {
      // A large text (a body near the 1 MiB limit) gets a buffer of its own; the next text starts a new one.
      const own = Buffer.from(text);
      this.chunks.push(own);
      this.used = CHUNK;
      return { chunk: this.chunks.length - 1, offset: 0, bytes: own.length };
    }
    if (this.used + most > CHUNK) {
      this.chunks.push(Buffer.allocUnsafeSlow(CHUNK));
      this.used = 0;
    }
    const chunk = this.chunks.length - 1;
    const offset = this.used;
    const bytes = this.chunks[chunk].write(text, offset);
    this.used += bytes;
    return { chunk, offset, bytes };
  }

  get({ chunk, offset, bytes }: TextRef): string {
    return this.chunks[chunk].toString('utf8', offset, offset + bytes);
  }
}
