/**
 * A local file's ByteReader: positional reads of its file descriptor. Synchronous:
 * shapefiles are read on worker threads, where a read blocks nothing else, and a local read
 * costs no round trip worth awaiting.
 */
import { readSync } from 'node:fs';
import type { ByteReader } from './byte-reader.ts';

/**
 * Reads `length` bytes at `position` of file descriptor `fd` into `target` from `offset`.
 * Returns how many bytes were read: fewer than asked only at the end of the file.
 */
function readInto(fd: number, target: Uint8Array, offset: number, length: number, position: number): number {
  let filled = 0;
  while (filled < length) {
    const bytesRead = readSync(fd, target, offset + filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

/** The file open as `fd`, of `size` bytes, read by positional reads. */
export function descriptorReader(fd: number, size: number): ByteReader {
  return {
    size,
    readAt(position, length, into) {
      const bytes = into && into.length >= length ? into : new Uint8Array(length);
      const read = readInto(fd, bytes, 0, length, position);
      return read === bytes.length ? bytes : bytes.subarray(0, read);
    },
  };
}

/** A .prj or .cpg is a line of text: more than this is not read. */
export const MAX_SIDE_FILE_BYTES = 64 * 1024;

/** The text of a small side file (.prj, .cpg). */
export function readSideFile(bytes: ByteReader): string {
  return new TextDecoder().decode(bytes.readAt(0, MAX_SIDE_FILE_BYTES));
}
