/**
 * The 100-byte main header the `.shp` and the `.shx` share, parsed in one module for both
 * readers. Kept apart from the record decoder: the main thread sizes what opening a file reads
 * by it (opening-bytes.ts), and must not load the reading code (ARCHITECTURE.md: records are
 * decoded on the drawing workers only).
 */
import type { BBox } from '../geometry/types.ts';
import { DamagedShapefileError } from '../errors.ts';
import { ShapeType } from './types.ts';

export const HEADER_BYTES = 100;

/** The 100-byte header shared by the `.shp` and the `.shx`. */
export interface MainHeader {
  shapeType: number;
  /** The header's file length in 16-bit words, unsigned as shapelib reads it. */
  fileWords: number;
  bbox: BBox;
}

const SHAPE_TYPES = new Set<number>(Object.values(ShapeType));

/** Parses and checks a `.shp` or `.shx` header; `file` names the file in errors. */
export function parseMainHeader(bytes: Uint8Array, file: string): MainHeader {
  if (bytes.length < HEADER_BYTES) {
    throw new DamagedShapefileError(file, `the file is ${bytes.length} bytes long, shorter than the 100-byte header.`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, HEADER_BYTES);
  const fileCode = view.getInt32(0);
  const version = view.getInt32(28, true);
  if (fileCode !== 9994 || version !== 1000) {
    throw new DamagedShapefileError(
      file,
      `it is not a shapefile (file code ${fileCode} and version ${version}, expected 9994 and 1000).`,
    );
  }
  const shapeType = view.getInt32(32, true);
  if (!SHAPE_TYPES.has(shapeType)) {
    throw new DamagedShapefileError(file, `the header names unknown shape type ${shapeType}.`);
  }
  return {
    shapeType,
    fileWords: view.getUint32(24),
    bbox: {
      xmin: view.getFloat64(36, true),
      ymin: view.getFloat64(44, true),
      xmax: view.getFloat64(52, true),
      ymax: view.getFloat64(60, true),
    },
  };
}

export function shapeTypeName(shapeType: number): string {
  return Object.entries(ShapeType).find(([, code]) => code === shapeType)?.[0] ?? `type ${shapeType}`;
}
