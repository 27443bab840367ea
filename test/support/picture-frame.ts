/**
 * The frame of a picture: the rectangle of the drawing space (the layer's projected metres;
 * Web Mercator for maps) that its pixels cover, so that GDAL can rasterize a layer onto the
 * same pixel grid. Worked out by the server's own pure fit rules: an image's by fitExtent
 * (src/projection/fit.ts: the extent scaled uniformly into the image less `buffer` pixels on
 * every side, centred), a map's by fitZoom and placeView (src/map/view.ts: the largest whole
 * zoom of 256-px tiles at which the extent plus `buffer` fits, centred on the extent's centre,
 * the corner snapped to a whole world pixel). Tests check these frames against what the
 * server shows (hot spots), so a wrong rule cannot pass.
 */
import type { BBox } from '../../src/geometry/types.ts';
import { fitZoom, placeView } from '../../src/map/view.ts';
import { fitExtent, type PixelTransform } from '../../src/projection/fit.ts';

export interface Frame {
  xmin: number;
  ymin: number;
  xmax: number;
  ymax: number;
  /** Pixels. */
  width: number;
  height: number;
  /** Pixels per unit of the drawing space. */
  scale: number;
  /** A map's zoom level. */
  zoom?: number;
}

/** The default `buffer` of images and maps. */
export const DEFAULT_BUFFER = 12;

/** The frame of an image of `extent` (the drawn features' bounding box, in the layer's projected units). */
export function imageFrame(extent: BBox, width: number, height: number, buffer = DEFAULT_BUFFER): Frame {
  return frameOf(fitExtent(extent, width, height, buffer), width, height);
}

/** The frame of a map fitted to `extent` (Web Mercator metres), at scale 1. */
export function mapFrame(extent: BBox, width: number, height: number, buffer = DEFAULT_BUFFER): Frame {
  const zoom = fitZoom(extent, width, height, buffer);
  const centre = { x: (extent.xmin + extent.xmax) / 2, y: (extent.ymin + extent.ymax) / 2 };
  return { ...frameOf(placeView(centre, zoom, width, height, 1).transform, width, height), zoom };
}

/** Where a point of the drawing space lands in the picture, in pixels from its top-left corner. */
export function pixelOf(frame: Frame, x: number, y: number): [number, number] {
  return [(x - frame.xmin) * frame.scale, (frame.ymax - y) * frame.scale];
}

function frameOf(transform: PixelTransform, width: number, height: number): Frame {
  const { scale, centreX, centreY, pixelCentreX, pixelCentreY } = transform;
  return {
    xmin: centreX - pixelCentreX / scale,
    xmax: centreX + (width - pixelCentreX) / scale,
    ymin: centreY - (height - pixelCentreY) / scale,
    ymax: centreY + pixelCentreY / scale,
    width,
    height,
    scale,
  };
}
