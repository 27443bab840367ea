/**
 * Shapes in image pixels, reduced to what the pixels can show before anything is written
 * as text or drawn: the cost of everything after this step then grows with the image, not
 * with the vertices stored in the file.
 */
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { dropNearVertices, keepMarked } from '../geometry/simplify.ts';
import { mapVertices, vertexCount, type Shape } from '../geometry/shape.ts';
import type { PixelTransform } from './fit.ts';

/**
 * Vertices of a line or ring closer than this (real pixels, on both axes) to the last
 * vertex kept are dropped: invisible at this scale. A line still ends at its own last vertex.
 */
const MIN_STEP = 0.25;

/**
 * `shape` in pixels of the image `transform` places it on (CSS pixels, which hot spots and
 * the SVG use), without the vertices that lie within MIN_STEP real pixels of the one before
 * (in a line or ring; points are all kept): an image drawn at `pixelRatio` real pixels per
 * CSS pixel keeps the finer detail its pixels show.
 */
export function toPixels(shape: Shape, transform: PixelTransform, pixelRatio: number, checkpoint: Checkpoint): Shape {
  const { scale, centreX, centreY, pixelCentreX, pixelCentreY } = transform;
  const pixels = mapVertices(shape, (x, y, out, at) => {
    out[at] = pixelCentreX + scale * (x - centreX);
    out[at + 1] = pixelCentreY - scale * (y - centreY);
  });
  checkpoint();
  return dropNearVertices(pixels, MIN_STEP / pixelRatio, checkpoint);
}

/**
 * Shapes (in pixels) with no more than about `maxVertices` vertices in all: when they have
 * more, lines and rings lose the vertices near their neighbours, and points are thinned to
 * one per grid cell, at a tolerance that doubles from `startTolerance` pixels until they
 * fit. Each pass is linear, and there are at most seventeen. Only data far denser than
 * its pixels (a line zigzagging
 * within each pixel, a million points on one image) gets there; drawing it then costs
 * what the image can show, not what the file holds.
 */
export function withinVertexBudget(shapes: Shape[], maxVertices: number, startTolerance: number, checkpoint: Checkpoint): Shape[] {
  let current = shapes;
  for (let tolerance = startTolerance; total(current) > maxVertices && tolerance <= MAX_TOLERANCE; tolerance *= 2) {
    current = shapes.map((shape) =>
      shape.kind === 'points' ? thinPoints(shape, tolerance, checkpoint) : dropNearVertices(shape, tolerance, checkpoint),
    );
  }
  return current;
}

/** Beyond this (pixels), simplifying further would leave nothing but triangles. */
const MAX_TOLERANCE = 1 << 16;

/** The first point in each `cell`-pixel square; the others would be drawn on top of it. */
function thinPoints(shape: Shape, cell: number, checkpoint: Checkpoint): Shape {
  const seen = new Set<number>();
  const kept = new Uint8Array(vertexCount(shape));
  const { xy } = shape;
  for (let i = 0; i < kept.length; i++) {
    // Pixels lie within a few thousand of the image, so a column and row fit in one number.
    const key = Math.floor(xy[2 * i] / cell) * 0x100000 + Math.floor(xy[2 * i + 1] / cell);
    if (seen.has(key)) continue;
    seen.add(key);
    kept[i] = 1;
    if ((i & 0xffff) === 0) checkpoint();
  }
  return keepMarked(shape, kept);
}

function total(shapes: readonly Shape[]): number {
  return shapes.reduce((sum, shape) => sum + vertexCount(shape), 0);
}
