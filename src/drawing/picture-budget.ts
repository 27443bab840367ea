/**
 * What one picture, image or map, can draw whatever the configured limits allow
 * (decisions.md, "Cost, load and cancellation"): checked with the request's other budgets,
 * before anything is decoded.
 */
import { BadRequestError } from '../errors.ts';
import { baseShapeType } from '../shapefile/shp-record.ts';
import { ShapeType } from '../shapefile/types.ts';

/**
 * Lines and polygons one picture may draw, whatever the limits allow: each is an element of
 * the picture's SVG, and resvg parses at most about a million elements. Points are stamped
 * (point-symbols.ts) and have no such bound.
 */
const MAX_DRAWN_SHAPES = 500_000;

/** Refuses a picture of `count` features past MAX_DRAWN_SHAPES unless they are points. */
export function checkDrawnShapes(count: number, shapeType: number): void {
  const points = baseShapeType(shapeType) === ShapeType.Point || baseShapeType(shapeType) === ShapeType.MultiPoint;
  if (points || count <= MAX_DRAWN_SHAPES) return;
  throw new BadRequestError(
    `The picture would draw ${count} lines or polygons; at most ${MAX_DRAWN_SHAPES} can be drawn in one picture, whatever the limits allow. ` +
      "List fewer ids in 'fid', narrow the selection in 'where' or show a smaller area.",
  );
}

