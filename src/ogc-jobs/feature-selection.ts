/**
 * The features an OGC items request pages through, in id order: every feature the file
 * lists (all records but those whose `.dbf` row is deleted), or those a `bbox` and/or a
 * CQL2 `filter` select. What had to be scanned for is kept per version of the file on this
 * worker, in a small cache bounded in bytes, so that the next page costs only its own
 * records.
 */
import { BadRequestError } from '../errors.ts';
import { contains, intersection, overlaps } from '../geometry/bbox.ts';
import { StepPacer } from '../cancellation/checkpoint.ts';
import type { BBox } from '../geometry/types.ts';
import type { OpenShapefile } from '../shapefile/file-set.ts';
import { arrayBytes, byteBoundedCache, OBJECT_BYTES } from '../structures/byte-bounded-cache.ts';
import type { DrawingContext } from '../job-context/context.ts';
import { shapeInLonLat, type GeometrySettings } from './geojson-feature.ts';
import { boxToLonLat, lonLatBoxInFile } from './lon-lat-box.ts';
import { shapeMeetsBox } from './shape-meets-box.ts';
import { matchingFeatures } from '../job-context/matching-features.ts';
import { commonIds } from '../structures/sorted-ids.ts';
import { recordIndex } from '../job-context/record-index.ts';

export interface SelectionQuery {
  /** WGS 84 lon/lat boxes; a feature in any of them matches (two when a bbox crosses the antimeridian). */
  bbox?: BBox[];
  /** CQL2 text over the `.dbf` fields. */
  filter?: string;
}

/** The matches: every feature but some ids, or just some ids; ascending either way. */
export type FeatureSelection = AllBut | { kind: 'ids'; ids: Uint32Array };
type AllBut = { kind: 'all-but'; records: number; missing: Uint32Array };

/** How many features match. */
export function matchCount(selection: FeatureSelection): number {
  return selection.kind === 'ids' ? selection.ids.length : selection.records - selection.missing.length;
}

/** The ids of the matches from position `offset` on, at most `limit` of them. */
export function pageOf(selection: FeatureSelection, offset: number, limit: number): number[] {
  if (selection.kind === 'ids') return Array.from(selection.ids.subarray(offset, offset + limit));
  const { records, missing } = selection;
  const ids: number[] = [];
  // The listed ids before missing[j] number missing[j] - j, which never falls as j grows.
  let j = countAtMost(missing, offset);
  for (let fid = offset + j; ids.length < limit && fid < records; fid++) {
    if (j < missing.length && missing[j] === fid) j++;
    else ids.push(fid);
  }
  return ids;
}

/**
 * Bytes of selections each worker keeps, keys included: a key holds the query's text (a
 * filter of up to 4,096 characters, longer once escaped), a selection 4 bytes a matching
 * or a deleted feature.
 */
export const SELECTION_CACHE_BYTES = 16 * 1024 * 1024;

const cache = byteBoundedCache<FeatureSelection>(SELECTION_CACHE_BYTES, (selection) =>
  OBJECT_BYTES + arrayBytes(selection.kind === 'ids' ? selection.ids : selection.missing),
);

/** How the records a bbox cannot settle by their bounding boxes are read and placed in lon/lat. */
export interface ShapeReading {
  settings: GeometrySettings;
  maxRings: number;
  /**
   * Most vertices (as their record headers count them) of the records a bbox cuts across,
   * which are decoded and tested vertex by vertex: as many as one page may hold.
   */
  maxVertices: number;
}

/** Every feature of `shapefile` the file lists (all but those whose `.dbf` row is deleted). */
export function listedFeatures(shapefile: OpenShapefile, context: DrawingContext): AllBut {
  return cached(shapefile, 'listed', () => scanListed(shapefile, context));
}

/** The features of `shapefile` that `query` selects; scans only what the cache does not hold. */
export function featureSelection(shapefile: OpenShapefile, query: SelectionQuery, reading: ShapeReading, context: DrawingContext): FeatureSelection {
  if (!query.bbox && query.filter === undefined) return listedFeatures(shapefile, context);
  return cached(shapefile, JSON.stringify(query), () => {
    // A filter's own pass over the .dbf leaves deleted rows out; only a bbox needs them listed.
    const inBox = query.bbox && idsInBoxes(shapefile, query.bbox, listedFeatures(shapefile, context), reading, context);
    const filtered = query.filter === undefined ? undefined : idsMatching(shapefile, query.filter, context);
    return { kind: 'ids', ids: inBox && filtered ? commonIds(inBox, filtered) : (inBox ?? filtered)! };
  });
}

function cached<Selected extends FeatureSelection>(shapefile: OpenShapefile, query: string, select: () => Selected): Selected {
  // By the version on disk, not the open file: one closed to make room and opened again unchanged keeps its selections.
  const key = `${shapefile.version}\0${query}`;
  let selection = cache.get(key) as Selected | undefined;
  if (!selection) cache.set(key, (selection = select()));
  return selection;
}

/**
 * Every feature but those whose `.dbf` row is deleted (or missing), from one pass over the
 * `.dbf`'s deletion flags, kept as the (usually empty) list of ids left out.
 */
function scanListed(shapefile: OpenShapefile, { checkpoint }: DrawingContext): AllBut {
  const missing: number[] = [];
  let next = 0;
  for (const { row } of shapefile.attributeRows([], checkpoint)) {
    while (next < row) missing.push(next++);
    next = row + 1;
  }
  while (next < shapefile.featureCount) missing.push(next++);
  return { kind: 'all-but', records: shapefile.featureCount, missing: Uint32Array.from(missing) };
}

/** How many entries j of `missing` have missing[j] - j <= offset (binary search). */
function countAtMost(missing: Uint32Array, offset: number): number {
  let low = 0;
  let high = missing.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (missing[middle] - middle <= offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The listed features whose geometry meets one of `boxes`, and those without geometry (which
 * match every bbox, as OGC API – Features says), the candidates found through the file's
 * spatial index (job-context/record-index.ts; docs/decisions.md, "Spatial index"). A record
 * is decided by its own bounding box when that lies outside the box, or inside it; only a
 * record across the box's edge is decoded and tested vertex by vertex, in lon/lat. Those
 * are counted first, from their record headers (as the index holds them), and refused past `reading.maxVertices`
 * before any is decoded, as a page is. The boxes are first cut to the file's extent, so
 * that they are mapped into the file's units only where its CRS is meant to be used.
 */
function idsInBoxes(shapefile: OpenShapefile, boxes: BBox[], { missing }: AllBut, reading: ShapeReading, context: DrawingContext): Uint32Array {
  const { checkpoint } = context;
  const extent = boxToLonLat(shapefile.bbox, shapefile.crs);
  const tests = boxes.flatMap((box) => {
    const part = extent && intersection(box, extent);
    if (!part) return [];
    const inFile = lonLatBoxInFile(part, shapefile.crs) ?? { outer: shapefile.bbox };
    // A box holding the whole file passes every record on to the exact test: its box mapped
    // to lon/lat and back would not hold a record on its edge exactly.
    return [{ box, inFile: sameBox(part, extent) ? { ...inFile, outer: shapefile.bbox } : inFile }];
  });
  const index = recordIndex(shapefile, checkpoint);
  // Those the index places in no box are candidates too: without geometry they match every
  // bbox, and one whose box is not finite is tested as the walk this replaced tested it.
  const candidates = ascendingUnion([index.withoutGeometry, index.notFinite, ...tests.map(({ inFile }) => index.search(inFile.outer, { checkpoint }).fids)]);
  const pacer = new StepPacer(checkpoint);
  const ids: number[] = [];
  /** Records across an edge of a box, to decode once their vertices are counted, with the boxes near each. */
  const across: { fid: number; near: typeof tests }[] = [];
  let acrossVertices = 0;
  let acrossCount = 0;
  let j = 0;
  for (const fid of candidates) {
    pacer.step();
    while (j < missing.length && missing[j] < fid) j++;
    if (missing[j] === fid) continue;
    const facts = index.facts(fid);
    if (!facts) {
      ids.push(fid);
      continue;
    }
    const { bbox } = facts;
    const near = tests.filter(({ inFile }) => overlaps(bbox, inFile.outer));
    if (near.length === 0) continue;
    if (near.some(({ inFile }) => inFile.inner && contains(inFile.inner, bbox))) {
      ids.push(fid);
      continue;
    }
    // Past the budget only the count goes on, for the message: nothing is kept or decoded.
    if (acrossVertices <= reading.maxVertices) across.push({ fid, near });
    acrossVertices += facts.pointCount;
    acrossCount++;
  }
  if (acrossVertices > reading.maxVertices) throw tooManyVerticesAcross(acrossCount, acrossVertices, reading.maxVertices);
  for (const { fid, near } of across) {
    checkpoint();
    const shape = shapefile.readShape(fid, { useCache: false, maxRings: reading.maxRings, checkpoint });
    const lonLat = shape && shapeInLonLat(shape, fid, reading.settings, checkpoint);
    if (lonLat && near.some(({ box }) => shapeMeetsBox(lonLat, box, pacer))) ids.push(fid);
  }
  // Records across an edge were tested after the others: the ids go back into id order.
  return Uint32Array.from(ids).sort();
}

/** The 400 for a bbox that cuts across records of more vertices than a page may hold. */
function tooManyVerticesAcross(features: number, vertices: number, limit: number): BadRequestError {
  return new BadRequestError(
    `Parameter 'bbox': the ${features} features across the edge of the box hold up to ${vertices} vertices; ` +
      `at most ${limit} (ogc.maxPageVertices) can be tested against a box in one request. ` +
      'Give a box that cuts across fewer or smaller features (one that holds them whole, or misses them), or select them with a filter alone.',
  );
}

function sameBox(a: BBox, b: BBox): boolean {
  return a.xmin === b.xmin && a.ymin === b.ymin && a.xmax === b.xmax && a.ymax === b.ymax;
}

/** The features the filter selects, null geometries included, every match kept. */
function idsMatching(shapefile: OpenShapefile, filter: string, { checkpoint }: DrawingContext): Uint32Array {
  return matchingFeatures(shapefile, filter, { keep: Infinity, drawableOnly: false }, checkpoint).fids;
}

/** The ids in any of the ascending lists, ascending, each once. */
function ascendingUnion(lists: Uint32Array[]): Uint32Array {
  const all = new Uint32Array(lists.reduce((sum, list) => sum + list.length, 0));
  let at = 0;
  for (const list of lists) {
    all.set(list, at);
    at += list.length;
  }
  all.sort();
  return all.filter((fid, i) => i === 0 || all[i - 1] !== fid);
}

