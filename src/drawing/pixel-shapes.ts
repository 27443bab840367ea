/**
 * A drawing's shapes in its CSS pixels, as the SVG draws them and the hot spots outline
 * them: reduced to what the real pixels can show, never to less (projection/pixels.ts).
 */
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { simplifyShape } from '../geometry/simplify.ts';
import type { Shape } from '../geometry/shape.ts';
import type { PixelTransform } from '../projection/fit.ts';
import { toPixels } from '../projection/pixels.ts';

export interface PixelShapesOptions {
  /** Real pixels per CSS pixel the image is drawn at: the shapes keep the detail those show. */
  pixelRatio: number;
  /** Douglas–Peucker tolerance in real pixels applied first (maps); 0 for none. */
  simplifyPixels: number;
  checkpoint: Checkpoint;
}

/** `shapes` in the image's CSS pixels, reduced to what its real pixels can show. */
export function pixelShapes(shapes: readonly Shape[], transform: PixelTransform, options: PixelShapesOptions): Shape[] {
  const { pixelRatio, simplifyPixels, checkpoint } = options;
  const tolerance = simplifyPixels / (transform.scale * pixelRatio);
  return shapes.map((shape) => toPixels(tolerance > 0 ? simplifyShape(shape, tolerance, checkpoint) : shape, transform, pixelRatio, checkpoint));
}

/**
 * The shapes hot spots are made from: those of the same image at scale 1 (`drawn` itself
 * there), so that one image map serves the image at every scale.
 */
export function hotSpotShapes(drawn: Shape[], shapes: readonly Shape[], transform: PixelTransform, options: PixelShapesOptions): Shape[] {
  return options.pixelRatio === 1 ? drawn : pixelShapes(shapes, transform, { ...options, pixelRatio: 1 });
}
