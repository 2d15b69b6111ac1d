// Texts the sandbox keeps for as long as it runs (the payload of every
// webhook it recorded), stored as UTF-8 in large buffers outside the
// JavaScript heap: the garbage collector never copies or scans them, which
// at 100,000 verifications is most of what a create would cost it.

/** Bytes per buffer; no text kept here comes near it (request bodies are bounded far lower). */
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
    const bytes = Buffer.byteLength(text);
    if (bytes > CHUNK) throw new RangeError(`a kept text is ${bytes} bytes, more than ${CHUNK}`);
    if (this.used + bytes > CHUNK) {
      this.chunks.push(Buffer.allocUnsafeSlow(CHUNK));
      this.used = 0;
    }
    const chunk = this.chunks.length - 1;
    const offset = this.used;
    this.chunks[chunk].write(text, offset);
    this.used += bytes;
    return { chunk, offset, bytes };
  }

  get({ chunk, offset, bytes }: TextRef): string {
    return this.chunks[chunk].toString('utf8', offset, offset + bytes);
  }
}
