/**
 * The spatial index of one version of a shapefile on a drawing worker: which records meet a
 * box, with their points and parts counted, without reading the `.shp` again. A map, an /ogc
 * bbox and each tile ask it instead of walking every record header of the file. Built once
 * from one walk over the record headers (through the same OpenShapefile, so a remote file's
 * walk runs in the job's phases, and an index is kept only once its walk got through), kept
 * per worker by the file's name and version, in bytes bounded (docs/decisions.md, "Spatial index").
 */
import { StepPacer, type Checkpoint } from '../cancellation/checkpoint.ts';
import type { BBox } from '../geometry/types.ts';
import type { OpenShapefile } from '../shapefile/file-set.ts';
import { BoxTree } from '../structures/box-tree.ts';
import { arrayBytes, byteBoundedCache, OBJECT_BYTES } from '../structures/byte-bounded-cache.ts';

/**
 * Bytes of indexes each drawing worker keeps: an index costs about 60 bytes a record, so
 * this holds one of two million records, or many small ones. A larger one is built, used by
 * its job and not kept (docs/decisions.md, "Spatial index").
 */
export const RECORD_INDEX_CACHE_BYTES = 128 * 1024 * 1024;

/** A record with geometry as its header gives it: its bounding box (in the file's CRS) and counts (as RecordFacts counts them). */
export interface PlacedRecord {
  bbox: BBox;
  pointCount: number;
  partCount: number;
}

/** What a search found. */
export interface IndexHits {
  /** The records whose boxes meet the search's box, ascending. */
  fids: Uint32Array;
  /** Their points, as their record headers count them. */
  vertices: number;
  /** Their parts, as PlacedRecord.partCount counts them (a hot spot each). */
  parts: number;
  /**
   * false when the search stopped past one of its budgets: more records meet the box than
   * `fids` holds, and which ones it holds is not said (not the first).
   */
  complete: boolean;
}

export interface SearchOptions {
  /** The searching job's: the search stops when it throws. */
  checkpoint: Checkpoint;
  /** The search stops once it has found more records than this. */
  maxRecords?: number;
  /** The search stops once the records it found hold more points than this. */
  maxVertices?: number;
}

/** The records of one version of a shapefile, by their boxes in the file's CRS. */
export interface RecordIndex {
  /** The version of the files it was built from (OpenShapefile.version). */
  readonly version: string;
  /** The records with nothing to place (a Null shape, no points), ascending: no search finds them. */
  readonly withoutGeometry: Uint32Array;
  /**
   * The records whose bounding box is not finite, ascending: no search finds them, and a
   * file with any is damaged (a map refuses it as the walk it replaces did).
   */
  readonly notFinite: Uint32Array;
  /**
   * The records with geometry whose bounding box meets `box` (in the file's CRS, edges
   * included), those with a box not finite left out; every such record when `box` is
   * undefined. Deleted records are never found.
   */
  search(box: BBox | undefined, options: SearchOptions): IndexHits;
  /** Record `fid`'s box and counts as its header gives them; undefined when it has no geometry, is deleted or does not exist. */
  facts(fid: number): PlacedRecord | undefined;
  /** What it costs in memory, as the cache counts it. */
  readonly bytes: number;
}

const cache = byteBoundedCache<RecordIndex>(RECORD_INDEX_CACHE_BYTES, (index) => index.bytes);

/**
 * The index of `shapefile`: this worker's, or built now from one walk over its records
 * (cancelled through `checkpoint`, kept only when complete).
 */
export function recordIndex(shapefile: OpenShapefile, checkpoint: Checkpoint): RecordIndex {
  const key = `${shapefile.name}\0${shapefile.version}`;
  let index = cache.get(key);
  if (!index) cache.set(key, (index = buildIndex(shapefile, checkpoint)));
  return index;
}

/** Per record placed in a box: its id, box (minX, minY, maxX, maxY), points and parts; records at position p of each. */
interface Placed {
  fids: Uint32Array;
  boxes: Float64Array;
  points: Uint32Array;
  parts: Uint32Array;
}

function buildIndex(shapefile: OpenShapefile, checkpoint: Checkpoint): RecordIndex {
  const pacer = new StepPacer(checkpoint);
  const capacity = shapefile.featureCount;
  const finite = placedOf(capacity);
  let finiteCount = 0;
  const withoutGeometry: number[] = [];
  const notFinite: RawPlaced[] = [];
  // The records are the walk's own, not copied: a million of them are read here.
  for (const record of shapefile.walk(checkpoint)) {
    pacer.step();
    const { bbox } = record;
    if (!bbox || record.pointCount === 0) withoutGeometry.push(record.fid);
    else if (!isFiniteBox(bbox)) notFinite.push({ fid: record.fid, bbox, pointCount: record.pointCount, partCount: record.partCount });
    else place(finite, finiteCount++, record.fid, bbox, record.pointCount, record.partCount);
  }
  // Those whose box is not finite come after the others, where the tree does not reach.
  const placed = finiteCount + notFinite.length === capacity ? finite : copyOf(finite, finiteCount, finiteCount + notFinite.length);
  notFinite.forEach(({ fid, bbox, pointCount, partCount }, i) => place(placed, finiteCount + i, fid, bbox, pointCount, partCount));
  const tree = new BoxTree(placed.boxes.subarray(0, 4 * finiteCount), pacer);
  return indexOf(shapefile.version, placed, finiteCount, tree, Uint32Array.from(withoutGeometry), Uint32Array.from(notFinite, ({ fid }) => fid));
}

type RawPlaced = PlacedRecord & { fid: number };

function place({ fids, boxes, points, parts }: Placed, position: number, fid: number, bbox: BBox, pointCount: number, partCount: number): void {
  fids[position] = fid;
  boxes[4 * position] = bbox.xmin;
  boxes[4 * position + 1] = bbox.ymin;
  boxes[4 * position + 2] = bbox.xmax;
  boxes[4 * position + 3] = bbox.ymax;
  points[position] = pointCount;
  parts[position] = partCount;
}

function isFiniteBox({ xmin, ymin, xmax, ymax }: BBox): boolean {
  return Number.isFinite(xmin) && Number.isFinite(ymin) && Number.isFinite(xmax) && Number.isFinite(ymax);
}

function placedOf(count: number): Placed {
  return { fids: new Uint32Array(count), boxes: new Float64Array(4 * count), points: new Uint32Array(count), parts: new Uint32Array(count) };
}

/** The first `count` records of `from`, in arrays of `size`. */
function copyOf(from: Placed, count: number, size: number): Placed {
  const to = placedOf(size);
  to.fids.set(from.fids.subarray(0, count));
  to.boxes.set(from.boxes.subarray(0, 4 * count));
  to.points.set(from.points.subarray(0, count));
  to.parts.set(from.parts.subarray(0, count));
  return to;
}

/** The index over `placed`, whose first `inTree` records (ascending ids, finite boxes) are in `tree`, the others after them (ascending ids). */
function indexOf(version: string, placed: Placed, inTree: number, tree: BoxTree, withoutGeometry: Uint32Array, notFinite: Uint32Array): RecordIndex {
  const { fids, boxes, points, parts } = placed;
  const bytes =
    OBJECT_BYTES * 3 + tree.bytes + [fids, boxes, points, parts, withoutGeometry, notFinite].reduce((sum, array) => sum + arrayBytes(array), 0);
  return {
    version,
    withoutGeometry,
    notFinite,
    bytes,
    search(box, { checkpoint, maxRecords = Infinity, maxVertices = Infinity }) {
      const found: number[] = [];
      let vertices = 0;
      let partCount = 0;
      /** Counts record `position` in; true once past a budget. */
      const take = (position: number): boolean => {
        found.push(position);
        vertices += points[position];
        partCount += parts[position];
        return found.length > maxRecords || vertices > maxVertices;
      };
      const pacer = new StepPacer(checkpoint);
      let stopped = false;
      if (box === undefined) {
        for (let position = 0; position < inTree && !stopped; position++) {
          pacer.step();
          stopped = take(position);
        }
      } else {
        stopped = tree.search(box.xmin, box.ymin, box.xmax, box.ymax, take, pacer);
      }
      // Positions in the tree are in id order.
      const positions = Uint32Array.from(found).sort();
      return { fids: positions.map((position) => fids[position]), vertices, parts: partCount, complete: !stopped };
    },
    facts(fid) {
      const position = positionOf(fids, 0, inTree, fid) ?? positionOf(fids, inTree, fids.length, fid);
      if (position === undefined) return undefined;
      const at = 4 * position;
      return {
        bbox: { xmin: boxes[at], ymin: boxes[at + 1], xmax: boxes[at + 2], ymax: boxes[at + 3] },
        pointCount: points[position],
        partCount: parts[position],
      };
    },
  };
}

/** Where `fid` is in ascending fids[first … end − 1] (binary search). */
function positionOf(fids: Uint32Array, first: number, end: number, fid: number): number | undefined {
  let low = first;
  let high = end;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (fids[middle] < fid) low = middle + 1;
    else high = middle;
  }
  return low < end && fids[low] === fid ? low : undefined;
}
