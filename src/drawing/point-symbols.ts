/**
 * A picture of points, rasterized: what lies below the points drawn by resvg, each point's
 * symbol stamped over it (raster/stamps.ts), what lies above drawn by resvg over that. The
 * symbol of each paint is the SVG symbol featuresSvg() writes, drawn by resvg once per
 * phase and kept by the worker, so a stamped point looks as the SVG answer draws it.
 */
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { pointsShape, type Shape } from '../geometry/shape.ts';
import { packedCount, packedKind, vertexRange, type PackedShapes } from '../geometry/packed-shapes.ts';
import { layOver } from '../raster/composite.ts';
import { renderPixels, type RenderOptions } from '../raster/rasterize.ts';
import type { Rasterizer } from '../raster/resvg.js';
import { STAMP_PHASES, stampAt, stampFrame, type Stamp } from '../raster/stamps.ts';
import { pixelWords } from '../raster/words.ts';
import { noLap, type Lap } from '../stages.ts';
import { featuresSvg } from '../svg/features.ts';
import type { DrawStyle, FeaturePaint } from '../svg/style.ts';

/** Whether a picture's features are points (a shapefile holds one kind), drawn as stamps unless the answer is the SVG itself. */
export function stampsPoints(shapes: readonly Shape[] | PackedShapes): boolean {
  return 'kinds' in shapes ? packedCount(shapes) > 0 && packedKind(shapes, 0) === 'points' : shapes.length > 0 && shapes[0].kind === 'points';
}

export interface StampedPicture {
  /** The picture below the points: an SVG document, drawn by `drawBelow` (maps lay their tiles under it). */
  below: string;
  /** What is drawn over the points (labels, legend, a basemap's upper layer): an SVG document, if any. */
  above?: string;
  /** The points, in the picture's CSS pixels: a million of them are a few arrays (packed-shapes.ts). */
  points: PackedShapes;
  style: DrawStyle;
  /** Each shape's own paint (a styled picture's class colours). */
  paints?: readonly (FeaturePaint | undefined)[];
}

/**
 * The picture's premultiplied pixels: `below` drawn (by `drawBelow`, resvg's plain drawing
 * unless a map lays tiles under it), the points stamped over it in order, `above` over them.
 */
export function stampedPixels(
  rasterizer: Rasterizer,
  picture: StampedPicture,
  options: RenderOptions,
  checkpoint: Checkpoint,
  lap: Lap = noLap,
  drawBelow: (svg: string) => Uint8Array = (svg) => renderPixels(rasterizer, svg, options, lap),
): Uint8Array {
  const canvas = drawBelow(picture.below);
  checkpoint();
  const { width, height, pixelRatio } = options;
  const words = pixelWords(canvas);
  const stamps = new Map<FeaturePaint | undefined, Stamp>();
  const { points } = picture;
  for (let index = 0, count = packedCount(points); index < count; index++) {
    const paint = picture.paints?.[index];
    let stamp = stamps.get(paint);
    if (!stamp) stamps.set(paint, (stamp = symbolStamp(rasterizer, picture.style, paint, pixelRatio)));
    const [first, end] = vertexRange(points, index);
    for (let i = 2 * first; i < 2 * end; i += 2) stampAt(words, width * pixelRatio, height * pixelRatio, stamp, points.xy[i] * pixelRatio, points.xy[i + 1] * pixelRatio);
    if ((index & STAMPS_PER_CHECKPOINT_MASK) === 0) checkpoint();
  }
  lap('stamps');
  if (picture.above) layOver(renderPixels(rasterizer, picture.above, options, lap), canvas);
  return canvas;
}

/** Points between two looks for cancellation (a multipoint's points count as one). */
const STAMPS_PER_CHECKPOINT_MASK = 0xfff;

/** Stamps of the symbols drawn so far on this worker, by paint; a few dozen at most in practice. */
const keptStamps = new Map<string, Stamp>();
const MAX_KEPT_STAMPS = 256;

/** The stamp of a point symbol styled by `style` and `paint`, drawn at `pixelRatio`. */
function symbolStamp(rasterizer: Rasterizer, style: DrawStyle, paint: FeaturePaint | undefined, pixelRatio: number): Stamp {
  const key = JSON.stringify([style.pointRadius, style.lineWidth, style.lineColor, style.fillColor, style.fillOpacity, paint ?? null, pixelRatio]);
  const kept = keptStamps.get(key);
  if (kept) return kept;
  // Drawn in real pixels: the style's widths times the pixel ratio.
  const realStyle = { ...style, pointRadius: style.pointRadius * pixelRatio, lineWidth: style.lineWidth * pixelRatio };
  const realPaint = paint && { ...paint, ...(paint.lineWidth === undefined ? {} : { lineWidth: paint.lineWidth * pixelRatio }) };
  const reach = realStyle.pointRadius + Math.max(realStyle.lineWidth, realPaint?.lineWidth ?? 0) / 2;
  const { origin, size } = stampFrame(reach);
  const phases: Uint32Array[] = [];
  for (let j = 0; j < STAMP_PHASES; j++) {
    for (let i = 0; i < STAMP_PHASES; i++) {
      const centre = pointsShape(Float64Array.of(origin + i / STAMP_PHASES, origin + j / STAMP_PHASES));
      // Written to the hundredth of a pixel (the precision of a picture at ten times the scale): quarters are exact.
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}">${featuresSvg([centre], realStyle, 10, [realPaint])}</svg>`;
      phases.push(pixelWords(rasterizer.render(svg, { loadSystemFonts: false }).pixels));
    }
  }
  const stamp = { size, origin, phases };
  if (keptStamps.size >= MAX_KEPT_STAMPS) keptStamps.clear();
  keptStamps.set(key, stamp);
  return stamp;
}
