/** A PMTiles Source over a local file: positional reads on one open handle, no whole-file load. */
import type { FileHandle } from 'node:fs/promises';
import type { RangeResponse, Source } from 'pmtiles';
import { readAt } from '../../src/shapefile/positional-read.ts';

export class FileHandleSource implements Source {
  constructor(
    private readonly handle: FileHandle,
    private readonly path: string,
  ) {}

  getKey(): string {
    return this.path;
  }

  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const bytes = await readAt(this.handle, offset, length);
    // The archive reader wants an ArrayBuffer of exactly the bytes read.
    return { data: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) as ArrayBuffer };
  }
}
