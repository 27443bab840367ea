/**
 * What one picture, image or map, can draw (docs/decisions.md, "Cost, load and cancellation"): as
 * many lines and polygons as resvg can parse, checked with the request's other budgets before
 * anything is decoded; and as much drawing work as a native render may take, checked on the
 * shapes in pixels before resvg is called.
 */
import { BadRequestError } from '../errors.ts';
import { baseShapeType } from '../shapefile/shp-record.ts';
import { ShapeType } from '../shapefile/types.ts';
import type { Shape } from '../geometry/shape.ts';
import type { DrawStyle, FeaturePaint } from '../svg/style.ts';

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


/**
 * What a picture's lines and polygons cost resvg, in pixel steps (docs/configuration.md,
 * `limits.maxDrawingWork`): a fill walks each edge row by row, a stroke sweeps its width along
 * each segment (three times the cost a pixel, measured: round joins and the stroke's outline),
 * and each shape costs fifty on its own. Measured on resvg 2.6 (native, 2 cores): about 65 ns a
 * step. A native render cannot be stopped once it runs, so a picture past the limit is refused
 * before resvg is called: data far denser than its pixels (a 1.5-million-vertex outline
 * zigzagging 50 pixels at every vertex would take 35 s) costs a 400, not a worker held for
 * seconds past the request's budget.
 */
export function drawingWork(pixels: readonly Shape[], style: DrawStyle, pixelRatio: number, paints?: readonly (FeaturePaint | undefined)[]): number {
  let work = 0;
  pixels.forEach((shape, index) => {
    if (shape.kind === 'points') return;
    const paint = paints?.[index];
    const strokeWidth = (paint?.lineWidth ?? style.lineWidth) * pixelRatio;
    const { xy, parts } = shape;
    let rows = 0;
    let length = 0;
    for (let part = 0; part < parts.length - 1; part++) {
      for (let i = parts[part] + 1; i < parts[part + 1]; i++) {
        const dx = xy[2 * i] - xy[2 * i - 2];
        const dy = xy[2 * i + 1] - xy[2 * i - 1];
        rows += Math.abs(dy);
        length += Math.sqrt(dx * dx + dy * dy);
      }
    }
    work += SHAPE_STEPS + (shape.kind === 'polygons' ? rows * pixelRatio : 0) + STROKE_STEPS * length * pixelRatio * strokeWidth;
  });
  return work;
}

const SHAPE_STEPS = 50;
const STROKE_STEPS = 3;

/** Refuses a picture whose drawing would take more than `limit` steps (drawingWork). */
export function checkDrawingWork(work: number, limit: number): void {
  if (work <= limit) return;
  throw new BadRequestError(
    `The picture's outlines and edges would take ${Math.round(work)} steps to draw; at most ${limit} (limits.maxDrawingWork) are drawn in one picture. ` +
      "Draw fewer or simpler features, a smaller 'size', or without outlines ('lineWidth=0').",
  );
}
