/**
 * From a shapefile's own coordinates to Web Mercator metres, through WGS84 with proj4
 * (datum shifts included, as src/shapefile/crs.ts defines them).
 */
import { BadRequestError, DamagedShapefileError } from '../errors.ts';
import { StepPacer, type Checkpoint } from '../cancellation/checkpoint.ts';
import { mapVertices, type Shape } from '../geometry/shape.ts';
import type { ShapePacker, VertexWriter } from '../geometry/packed-shapes.ts';
import type { BBox } from '../geometry/types.ts';
import { sampledBounds } from '../projection/sampled-bounds.ts';
import { HALF_WORLD, toLonLat, writeWebMercator } from '../projection/web-mercator.ts';
import { fromWgs84, toWgs84 } from '../shapefile/crs.ts';
import type { Crs } from '../shapefile/types.ts';

/** Writes the Web Mercator metres of file coordinates (x, y) into `out` at `at`. */
export type ToMercator = (x: number, y: number, out: Float64Array, at: number) => void;

/** The shapefile's transform into Web Mercator; 400 when its CRS is unknown. */
export function mercatorTransform(crs: Crs, shapefile: string): ToMercator {
  const toLonLat = toWgs84(crs);
  if (!toLonLat) {
    throw new BadRequestError(
      `Shapefile '${shapefile}' cannot be drawn on a map: its coordinate reference system is unknown ` +
        '(it has no usable .prj and its coordinates are not longitude/latitude).',
    );
  }
  return (x, y, out, at) => {
    const [lon, lat] = toLonLat(x, y);
    writeWebMercator(lon, lat, out, at);
  };
}

/**
 * Steps of the checkpoint's pacing (StepPacer) one vertex counts for: a proj4 transform (with a datum
 * shift) costs a few microseconds, several elementary steps' worth, so a record of millions
 * of vertices looks at the checkpoint every 10,000 of them, well within 100 ms.
 */
const STEPS_PER_VERTEX = 5;

/**
 * A shape with each vertex written by `writeVertex` (into Web Mercator, into lon/lat); a vertex
 * that comes out non-finite, which its CRS cannot place on Earth, makes its record damaged.
 * `checkpoint` runs every few thousand vertices, so that a cancelled request stops inside a
 * large record instead of running on until its worker is replaced.
 */
export function reprojectShape(shape: Shape, writeVertex: VertexWriter, fid: number, file: string, checkpoint: Checkpoint): Shape {
  const placing = placingWriter(writeVertex, checkpoint);
  const projected = mapVertices(shape, placing.write);
  if (!placing.placedAll()) throw unplaced(file, fid);
  return projected;
}

/**
 * Reprojects many shapes into `packer` (a map's features kept in a few arrays,
 * packed-shapes.ts), as reprojectShape() does one: the box of each shape as written. One
 * writer serves them all.
 */
export function reprojector(packer: ShapePacker, writeVertex: VertexWriter, file: string, checkpoint: Checkpoint): (shape: Shape, fid: number) => BBox {
  const placing = placingWriter(writeVertex, checkpoint);
  return (shape, fid) => {
    const box = packer.add(shape, placing.write);
    if (!placing.placedAll()) throw unplaced(file, fid);
    return box;
  };
}

/** `writeVertex`, its steps paced by `checkpoint`, noting whether every vertex it wrote was finite. */
function placingWriter(writeVertex: VertexWriter, checkpoint: Checkpoint): { write: VertexWriter; placedAll(): boolean } {
  const pacer = new StepPacer(checkpoint);
  let placed = true;
  return {
    write(x, y, out, at) {
      pacer.step(STEPS_PER_VERTEX);
      writeVertex(x, y, out, at);
      placed &&= Number.isFinite(out[at]) && Number.isFinite(out[at + 1]);
    },
    placedAll: () => placed,
  };
}

function unplaced(file: string, fid: number): DamagedShapefileError {
  return new DamagedShapefileError(file, `record ${fid} has coordinates that its coordinate reference system cannot place on Earth.`);
}

/**
 * The Web Mercator box around a box in the file's units, within the Web Mercator world.
 * Edges are sampled, since a straight edge in one projection is a curve in another; exact
 * for lon/lat boxes.
 */
export function bboxToMercator(box: BBox, toMercator: ToMercator): BBox {
  const out = new Float64Array(2);
  const envelope = sampledBounds(box, (x, y) => {
    toMercator(x, y, out, 0);
    return out;
  });
  return clampToWorld(envelope ?? UNPLACED);
}

/** What clampToWorld makes the whole world of. */
const UNPLACED: BBox = { xmin: NaN, ymin: NaN, xmax: NaN, ymax: NaN };

/**
 * A box clamped to the Web Mercator world (±180°, ±85.0511°), so that no extent reaches
 * where a view, its tiles or its copies of the world would grow with a coordinate's value.
 * A box with no finite corner becomes the whole world.
 */
export function clampToWorld(box: BBox): BBox {
  const clamp = (value: number, fallback: number) =>
    Number.isNaN(value) ? fallback : Math.max(-HALF_WORLD, Math.min(HALF_WORLD, value));
  const clamped = {
    xmin: clamp(box.xmin, -HALF_WORLD),
    ymin: clamp(box.ymin, -HALF_WORLD),
    xmax: clamp(box.xmax, HALF_WORLD),
    ymax: clamp(box.ymax, HALF_WORLD),
  };
  return clamped.xmin <= clamped.xmax && clamped.ymin <= clamped.ymax
    ? clamped
    : { xmin: -HALF_WORLD, ymin: -HALF_WORLD, xmax: HALF_WORLD, ymax: HALF_WORLD };
}

/**
 * The box in the file's units around a Web Mercator box, for testing records against the
 * view before decoding them; undefined when the view reaches where the file's CRS is not
 * defined (the caller then tests every record).
 */
export function mercatorBoxToFile(box: BBox, crs: Crs): BBox | undefined {
  // Without a CRS the file is taken for lon/lat, as everywhere on maps.
  const fromLonLat = fromWgs84(crs) ?? ((lon: number, lat: number) => [lon, lat]);
  return sampledBounds(box, (x, y) => {
    const { lon, lat } = toLonLat({ x, y });
    return fromLonLat(lon, lat);
  });
}
