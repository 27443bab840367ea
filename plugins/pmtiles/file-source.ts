/** A PMTiles Source over a local file: positional reads on one open handle, no whole-file load. */
import type { FileHandle } from 'node:fs/promises';
import type { RangeResponse, Source } from 'pmtiles';

export class FileHandleSource implements Source {
  constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
  ) {}

  getKey(): string {
    return this.path;
  }

  /** Up to `length` bytes at `offset`; fewer only at the end of the file. */
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const data = new Uint8Array(length);
    let read = 0;
    for (let step = 1; read < length && step > 0; read += step) {
      ({ bytesRead: step } = await this.handle.read(data, read, length - read, offset + read));
    }
    // The archive reader wants an ArrayBuffer of exactly the bytes read.
    return { data: data.buffer.slice(0, read) };
  }
}
