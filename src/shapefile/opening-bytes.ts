/**
 * What opening one version of a shapefile reads of each of its files, and no more: the .shp
 * and .shx headers, the .dbf's header (a prefix with room for 126 fields; a wider header is
 * read again whole), the .prj and .cpg up to the side files' bound. A remote source's main
 * thread fetches these once per version for all its workers (sources/openings.ts); a worker
 * not handed them fetches them itself (job-context/remote-shapefiles.ts).
 */
import { DBF_PREFIX_BYTES } from './dbf.ts';
import type { FileKind } from './file-kinds.ts';
import { MAX_SIDE_FILE_BYTES } from './positional-read.ts';
import { HEADER_BYTES } from './shp-header.ts';

/** Of a .dbf: its 32-byte prefix, 126 fields of 32 bytes and the terminator. */
const OPENING_DBF_BYTES = 4096;

export function openingBytes(kind: FileKind, size: number): number {
  switch (kind) {
    case 'shp':
    case 'shx':
      return Math.min(size, HEADER_BYTES);
    case 'dbf':
      return Math.min(size, OPENING_DBF_BYTES);
    default:
      return Math.min(size, MAX_SIDE_FILE_BYTES);
  }
}

/**
 * The opening bytes of a .dbf cut to the header's own length when they hold all of it (most
 * tables have a few fields, not 126): what is kept and handed to every job stays small.
 */
export function trimmedOpening(kind: FileKind, bytes: Uint8Array): Uint8Array {
  if (kind !== 'dbf' || bytes.length < DBF_PREFIX_BYTES) return bytes;
  const headerBytes = bytes[8] | (bytes[9] << 8);
  return headerBytes > DBF_PREFIX_BYTES && headerBytes < bytes.length ? bytes.slice(0, headerBytes) : bytes;
}
