/** A minimal PMTiles v3 writer (uncompressed, root directory only) for building test archives. */
import { writeFileSync } from 'node:fs';
import { TileType, zxyToTileId } from 'pmtiles';

export interface ArchiveTile {
  z: number;
  x: number;
  y: number;
  bytes: Uint8Array;
}

export interface ArchiveOptions {
  minZoom: number;
  maxZoom: number;
  tileType?: TileType;
  metadata?: Record<string, unknown>;
}

const HEADER_BYTES = 127;

export function writePmtiles(path: string, tiles: readonly ArchiveTile[], options: ArchiveOptions): void {
  const entries = tiles.map((tile) => ({ tileId: zxyToTileId(tile.z, tile.x, tile.y), bytes: tile.bytes })).sort((a, b) => a.tileId - b.tileId);
  let offset = 0;
  const placed = entries.map((entry) => {
    const result = { tileId: entry.tileId, offset, length: entry.bytes.length };
    offset += entry.bytes.length;
    return result;
  });
  const directory = new Uint8Array([
    ...varint(placed.length),
    ...placed.flatMap((entry, i) => varint(entry.tileId - (i === 0 ? 0 : placed[i - 1].tileId))),
    ...placed.flatMap(() => varint(1)),
    ...placed.flatMap((entry) => varint(entry.length)),
    ...placed.flatMap((entry, i) => varint(i > 0 && entry.offset === placed[i - 1].offset + placed[i - 1].length ? 0 : entry.offset + 1)),
  ]);
  const metadata = new TextEncoder().encode(JSON.stringify(options.metadata ?? {}));
  const tileData = Buffer.concat(entries.map((entry) => entry.bytes));

  const header = Buffer.alloc(HEADER_BYTES);
  header.write('PMTiles', 0, 'ascii');
  header.writeUInt8(3, 7);
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + directory.length;
  const tileDataOffset = metadataOffset + metadata.length;
  const u64 = (position: number, value: number) => header.writeBigUInt64LE(BigInt(value), position);
  u64(8, rootOffset);
  u64(16, directory.length);
  u64(24, metadataOffset);
  u64(32, metadata.length);
  u64(40, tileDataOffset);
  u64(48, 0);
  u64(56, tileDataOffset);
  u64(64, tileData.length);
  u64(72, entries.length);
  u64(80, entries.length);
  u64(88, entries.length);
  header.writeUInt8(1, 96); // clustered
  header.writeUInt8(1, 97); // internal compression: none
  header.writeUInt8(1, 98); // tile compression: none
  header.writeUInt8(options.tileType ?? TileType.Png, 99);
  header.writeUInt8(options.minZoom, 100);
  header.writeUInt8(options.maxZoom, 101);
  header.writeInt32LE(-180e7, 102);
  header.writeInt32LE(-85e7, 106);
  header.writeInt32LE(180e7, 110);
  header.writeInt32LE(85e7, 114);
  header.writeUInt8(options.minZoom, 118);
  writeFileSync(path, Buffer.concat([header, directory, metadata, tileData]));
}

function varint(value: number): number[] {
  const bytes: number[] = [];
  while (value >= 0x80) {
    bytes.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  bytes.push(value);
  return bytes;
}
