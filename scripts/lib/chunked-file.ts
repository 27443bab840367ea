import { closeSync, openSync, writeSync } from 'node:fs';

const CHUNK_BYTES = 1 << 20;

/**
 * An append-only file written through a ~1 MB buffer with synchronous writes, so a
 * multi-gigabyte file never sits in memory. Callers reserve room and fill it in place.
 */
export class ChunkedFile {
  private readonly fd: number;
  private chunk = Buffer.alloc(CHUNK_BYTES);
  private used = 0;
  /** Bytes appended so far (flushed or not). */
  length = 0;

  constructor(path: string) {
    this.fd = openSync(path, 'w');
  }

  /** Room for `bytes` more bytes, zero-filled: fill `view` from `offset`. */
  reserve(bytes: number): { view: DataView; buffer: Buffer; offset: number } {
    if (this.used + bytes > this.chunk.length) this.flush();
    if (bytes > this.chunk.length) this.chunk = Buffer.alloc(bytes);
    const offset = this.used;
    this.chunk.fill(0, offset, offset + bytes);
    this.used += bytes;
    this.length += bytes;
    return { view: new DataView(this.chunk.buffer, this.chunk.byteOffset), buffer: this.chunk, offset };
  }

  append(bytes: Uint8Array): void {
    const { buffer, offset } = this.reserve(bytes.length);
    buffer.set(bytes, offset);
  }

  /** Overwrites bytes already flushed or buffered, e.g. a header patched at the end. */
  patch(position: number, bytes: Uint8Array): void {
    this.flush();
    writeSync(this.fd, bytes, 0, bytes.length, position);
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }

  private flush(): void {
    let written = 0;
    while (written < this.used) {
      written += writeSync(this.fd, this.chunk, written, this.used - written, this.length - this.used + written);
    }
    this.used = 0;
  }
}
