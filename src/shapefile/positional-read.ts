import type { FileHandle } from 'node:fs/promises';

/**
 * Reads `length` bytes at `position` into `target` from `offset`. Returns how many bytes
 * were read: fewer than asked only at the end of the file.
 */
export async function readInto(
  handle: FileHandle,
  target: Uint8Array,
  offset: number,
  length: number,
  position: number,
): Promise<number> {
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(target, offset + filled, length - filled, position + filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return filled;
}

/** Up to `length` bytes at `position`; shorter only at the end of the file. */
export async function readAt(handle: FileHandle, position: number, length: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  const read = await readInto(handle, bytes, 0, length, position);
  return read === length ? bytes : bytes.subarray(0, read);
}
