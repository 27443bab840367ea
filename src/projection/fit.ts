/**
 * The fit rule of images (docs/decisions.md, "Drawing an image"): the drawing space into pixels
 * at one uniform scale, centred, less `buffer` on every side. Maps place features by their view
 * instead (map/view.ts), which makes the same PixelTransform.
 */
import type { BBox } from '../geometry/types.ts';

/**
 * A uniform scale and shift from the drawing space (x right, y up) into image pixels
 * (x right, y down): pixel = pixelCentre + scale * (point - centre), y flipped.
 * Anchoring on the extent's centre, rather than on the origin, keeps precision when a tiny
 * extent lies far from the origin and the scale is huge.
 */
export interface PixelTransform {
  scale: number;
  centreX: number;
  centreY: number;
  pixelCentreX: number;
  pixelCentreY: number;
}

/**
 * The fit rule: `extent` scaled uniformly to fit the image less `buffer` pixels on every
 * side, centred on both axes. A zero-size extent (one point) is centred at scale 1; a
 * zero-size axis (a horizontal or vertical line) is fitted on the other axis alone. Any
 * finite extent fits, however large: halves are taken before differences, so nothing
 * overflows to infinity.
 */
export function fitExtent(extent: BBox, width: number, height: number, buffer: number): PixelTransform {
  const halfWidth = extent.xmax / 2 - extent.xmin / 2;
  const halfHeight = extent.ymax / 2 - extent.ymin / 2;
  const scaleX = halfWidth > 0 ? (width / 2 - buffer) / halfWidth : Infinity;
  const scaleY = halfHeight > 0 ? (height / 2 - buffer) / halfHeight : Infinity;
  const scale = Math.min(scaleX, scaleY);
  return {
    scale: Number.isFinite(scale) ? scale : 1,
    centreX: extent.xmin / 2 + extent.xmax / 2,
    centreY: extent.ymin / 2 + extent.ymax / 2,
    pixelCentreX: width / 2,
    pixelCentreY: height / 2,
  };
}

export function toPixel(transform: PixelTransform, x: number, y: number): [number, number] {
  return [
    transform.pixelCentreX + transform.scale * (x - transform.centreX),
    transform.pixelCentreY - transform.scale * (y - transform.centreY),
  ];
}
