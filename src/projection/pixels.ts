/**
 * Shapes in image pixels, reduced to what the pixels can show before anything is written
 * as text or drawn, and never to less (docs/api.md, "How features are drawn"):
 * vertices closer than a quarter of a real pixel go, a polygon smaller than a pixel becomes
 * the pixels it touches. The cost of everything after this step then grows with what the
 * image shows; what a request may ask to be drawn at all is bounded before the work, by the
 * limits on features and vertices.
 */
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { dropNearVertices } from '../geometry/simplify.ts';
import { mapVertices, polygonsShape, type Shape } from '../geometry/shape.ts';
import type { PixelTransform } from './fit.ts';
import type { VertexWriter } from '../geometry/packed-shapes.ts';

/**
 * Vertices of a line or ring closer than this (real pixels, on both axes) to the last
 * vertex kept are dropped: invisible at this scale. A line still ends at its own last vertex.
 */
const MIN_STEP = 0.25;

/**
 * `shape` in pixels of the image `transform` places it on (CSS pixels, which hot spots and
 * the SVG use), without the vertices that lie within MIN_STEP real pixels of the one before
 * (in a line or ring; points are all kept), and with every polygon smaller than a real
 * pixel drawn as the pixels it touches: an image drawn at `pixelRatio` real pixels per CSS
 * pixel keeps the finer detail its pixels show, and loses no feature.
 */
export function toPixels(shape: Shape, transform: PixelTransform, pixelRatio: number, checkpoint: Checkpoint): Shape {
  const pixels = mapVertices(shape, pixelWriter(transform));
  checkpoint();
  const marked = pixels.kind === 'polygons' ? withPixelMarks(pixels, pixelRatio) : pixels;
  return dropNearVertices(marked, MIN_STEP / pixelRatio, checkpoint);
}

/** Writes a vertex of the drawing's space as the CSS pixel `transform` places it at (y down). */
export function pixelWriter({ scale, centreX, centreY, pixelCentreX, pixelCentreY }: PixelTransform): VertexWriter {
  return (x, y, out, at) => {
    out[at] = pixelCentreX + scale * (x - centreX);
    out[at + 1] = pixelCentreY - scale * (y - centreY);
  };
}

/**
 * The polygons of `shape` (in CSS pixels) with each one whose outer ring fits within a
 * real pixel on both axes replaced by the block of real pixels its box touches, and its
 * holes left out: anti-aliasing would paint such a polygon as faintly as it covers its
 * pixel, or not at all once its vertices merge, where GDAL's rasterizer (ALL_TOUCHED) and
 * MapServer paint the pixel. `shape` itself when no polygon is that small.
 */
function withPixelMarks(shape: Shape, pixelRatio: number): Shape {
  const { xy, parts, polygons } = shape;
  const ringBox = (ring: number) => {
    let xmin = Infinity;
    let ymin = Infinity;
    let xmax = -Infinity;
    let ymax = -Infinity;
    for (let i = parts[ring]; i < parts[ring + 1]; i++) {
      const x = xy[2 * i] * pixelRatio;
      const y = xy[2 * i + 1] * pixelRatio;
      if (x < xmin) xmin = x;
      if (x > xmax) xmax = x;
      if (y < ymin) ymin = y;
      if (y > ymax) ymax = y;
    }
    return { xmin, ymin, xmax, ymax };
  };
  const polygonCount = polygons.length - 1;
  const marks: ({ xmin: number; ymin: number; xmax: number; ymax: number } | undefined)[] = new Array(polygonCount);
  let anyMark = false;
  for (let polygon = 0; polygon < polygonCount; polygon++) {
    const box = ringBox(polygons[polygon]);
    if (box.xmax - box.xmin < 1 && box.ymax - box.ymin < 1) {
      marks[polygon] = box;
      anyMark = true;
    }
  }
  if (!anyMark) return shape;

  const xyOut: number[] = [];
  const partsOut: number[] = [];
  const polygonsOut: number[] = [];
  for (let polygon = 0; polygon < polygonCount; polygon++) {
    polygonsOut.push(partsOut.length);
    const mark = marks[polygon];
    if (mark) {
      // The whole real pixels the box touches, in CSS pixels; a box on a pixel edge touches the pixel it starts in.
      const left = Math.floor(mark.xmin) / pixelRatio;
      const top = Math.floor(mark.ymin) / pixelRatio;
      const right = (Math.floor(mark.xmax) + 1) / pixelRatio;
      const bottom = (Math.floor(mark.ymax) + 1) / pixelRatio;
      partsOut.push(xyOut.length / 2);
      xyOut.push(left, top, right, top, right, bottom, left, bottom, left, top);
      continue;
    }
    for (let ring = polygons[polygon]; ring < polygons[polygon + 1]; ring++) {
      partsOut.push(xyOut.length / 2);
      for (let i = 2 * parts[ring]; i < 2 * parts[ring + 1]; i++) xyOut.push(xy[i]);
    }
  }
  polygonsOut.push(partsOut.length);
  partsOut.push(xyOut.length / 2);
  return polygonsShape(Float64Array.from(xyOut), Uint32Array.from(partsOut), Uint32Array.from(polygonsOut));
}
