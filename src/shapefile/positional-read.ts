import { readSync } from 'node:fs';

/**
 * Reads `length` bytes at `position` of file descriptor `fd` into `target` from `offset`.
 * Returns how many bytes were read: fewer than asked only at the end of the file.
 * Synchronous: shapefiles are read on worker threads, where a read blocks nothing else.
 */
export function readInto(fd: number, target: Uint8Array, offset: number, length: number, position: number): number {
  let filled = 0;
  while (filled < length) {
    const bytesRead = readSync(fd, target, offset + filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

/** Up to `length` bytes at `position`; shorter only at the end of the file. */
export function readAt(fd: number, position: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  const read = readInto(fd, bytes, 0, length, position);
  return read === length ? bytes : bytes.subarray(0, read);
}

const MAX_SIDE_FILE_BYTES = 64 * 1024;

/** The text of a small side file (.prj, .cpg). */
export function readSideFile(fd: number): string {
  return new TextDecoder().decode(readAt(fd, 0, MAX_SIDE_FILE_BYTES));
}
