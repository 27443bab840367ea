/**
 * test/fixtures/gdal/reference.json, written by scripts/gdal-reference/corpus.py: what GDAL
 * 3.6 (python3-gdal, the library ogrinfo and QGIS use) makes of every file of the corpus;
 * and our readings put in the same terms, so that tests can compare the two.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Position } from 'geojson';
import { childCount, childShape, type Shape } from '../../src/geometry/shape.ts';
import { shapeToGeoJson } from '../../src/geometry/to-geojson.ts';
import type { DecodedPng } from './png.ts';

export const GDAL_FIXTURES = fileURLToPath(new URL('../fixtures/gdal/', import.meta.url));

export interface GdalReference {
  /** GDAL's version string. */
  gdal: string;
  /** The pixel grid of the masks: our image of each child at this size and buffer. */
  image: { width: number; height: number; buffer: number };
  files: Record<string, ReferenceFile>;
}

export interface ReferenceFile {
  /** ogr2ogr, pyshp, bytes written by the script, or one of those edited. */
  writer: string;
  about: string;
  gdal: GdalReading;
  /** For a file without .shx: GDAL's reading with SHAPE_RESTORE_SHX=YES. */
  restored?: GdalReading;
  /** By child id ("3.1"): GDAL's geometry of that child rasterized on our image's pixel grid. */
  masks?: Record<string, { file: string; bbox: number[]; pixels: number }>;
}

export interface GdalMessage {
  level: 'warning' | 'failure' | 'fatal';
  message: string;
}

export interface GdalReading {
  opens: boolean;
  /** Why GDAL could not open the file. */
  errors?: GdalMessage[];
  geometryType?: string;
  /** The layer's extent: xmin, ymin, xmax, ymax. */
  extent?: number[];
  featureCount?: number;
  /** The encoding GDAL decodes the .dbf with ('' for none). */
  encoding?: string;
  /** The feature ids GDAL lists, reading the layer from start to end. */
  listed?: number[];
  features?: ReferenceFeature[];
}

/** A point is [x, y]; a line its positions; a polygon its rings, outer ring first. */
export type Child = Position | Position[] | Position[][];

export interface ReferenceFeature {
  fid: number;
  /** Whether GDAL gives a feature for this id at all. */
  feature: boolean;
  /** null: no geometry. Non-finite coordinates are written as strings ('nan', 'inf'). */
  geometry?: null | { type: string; empty: true } | { type: string; children: Child[] | null; bbox: (number | string)[] };
  /** As ogr2ogr's GeoJSON writer gives them. */
  attributes?: Record<string, string | number | boolean | null>;
  /** What GDAL reported while reading this feature. */
  errors: GdalMessage[];
}

export function loadGdalReference(): GdalReference {
  return JSON.parse(readFileSync(`${GDAL_FIXTURES}reference.json`, 'utf8')) as GdalReference;
}

/** The errors GDAL reported for a feature (not its warnings). */
export function failures(feature: ReferenceFeature): string[] {
  return feature.errors.filter((error) => error.level !== 'warning').map((error) => error.message);
}

/** Our shape's children as the reference writes GDAL's: docs/decisions.md numbering, x and y only. */
export function childrenOf(shape: Shape): Child[] {
  return Array.from({ length: childCount(shape) }, (_, c) => {
    const geometry = shapeToGeoJson(childShape(shape, c)!)!;
    switch (geometry.type) {
      case 'MultiPoint':
      case 'MultiLineString':
      case 'MultiPolygon':
        return geometry.coordinates[0];
      default:
        throw new Error(`shapeToGeoJson gave a ${geometry.type}.`);
    }
  });
}

/**
 * Whether a fault in record `fid` is the `.shx`'s: its entry points inside the file header,
 * or gives the record fewer bytes than the `.shp` record's own header does (GDAL parses
 * what the `.shx` delimits, so a record it cuts short is its fault). Otherwise the `.shp`
 * is to blame.
 */
export function indexIsToBlame(base: string, fid: number): boolean {
  const shx = readFileSync(`${base}.shx`);
  const offset = shx.readInt32BE(100 + 8 * fid) * 2;
  const listed = shx.readInt32BE(104 + 8 * fid) * 2;
  const shp = readFileSync(`${base}.shp`);
  if (offset < 100) return true;
  return offset + 8 <= shp.length && listed < shp.readInt32BE(offset + 4) * 2;
}

/**
 * Intersection over union of two pixel sets: `ours`, the pixels of our image at least half
 * opaque (anti-aliasing makes edge pixels partly so: half is where a pixel's centre lies
 * inside), and `mask`'s light pixels.
 */
export function maskIoU(ours: DecodedPng, mask: DecodedPng): number {
  if (ours.width !== mask.width || ours.height !== mask.height) throw new Error('The images differ in size.');
  let both = 0;
  let either = 0;
  for (let i = 0; i < ours.width * ours.height; i++) {
    const inOurs = ours.data[4 * i + 3] >= 128;
    const inMask = mask.data[4 * i] >= 128;
    if (inOurs && inMask) both++;
    if (inOurs || inMask) either++;
  }
  return either === 0 ? 1 : both / either;
}
