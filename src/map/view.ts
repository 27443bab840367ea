/**
 * The map's view in Web Mercator: 256-px tiles, integer zoom, world pixels from 180°W and
 * 85.0511°N. Positions are in EPSG:3857 metres (the drawing space of geographic data).
 */
import type { MapView } from '../plugin-contract/basemap-plugin.ts';
import type { BBox } from '../geometry/types.ts';
import type { PixelTransform } from '../projection/fit.ts';
import { HALF_WORLD, MAX_ZOOM, MIN_ZOOM, pixelsPerMetre, toLonLat, worldPixelToMetres } from '../projection/web-mercator.ts';

/**
 * The largest zoom at which `extent` plus `buffer` pixels on every side fits the image;
 * the smallest zoom when even that is too tight. A point fits at every zoom.
 */
export function fitZoom(extent: BBox, width: number, height: number, buffer: number): number {
  for (let zoom = MAX_ZOOM; zoom > MIN_ZOOM; zoom--) {
    const scale = pixelsPerMetre(zoom);
    const fits =
      (extent.xmax - extent.xmin) * scale + 2 * buffer <= width && (extent.ymax - extent.ymin) * scale + 2 * buffer <= height;
    if (fits) return zoom;
  }
  return MIN_ZOOM;
}

export interface Placement {
  view: MapView;
  /** From Web Mercator metres to the image's (CSS) pixels, for drawing and hot spots. */
  transform: PixelTransform;
}

/**
 * The view centred on `centre` (metres) at `zoom`, `width` × `height` CSS pixels drawn at
 * `devicePixelRatio` real pixels each. The top-left corner is snapped to a whole world
 * pixel, so tiles land exactly on the image's pixel grid (the centre moves by less than a
 * pixel for it), at any whole pixel ratio.
 */
export function placeView(centre: { x: number; y: number }, zoom: number, width: number, height: number, devicePixelRatio: number): Placement {
  const scale = pixelsPerMetre(zoom);
  const left = Math.round((centre.x + HALF_WORLD) * scale - width / 2);
  const top = Math.round((HALF_WORLD - centre.y) * scale - height / 2);
  const metresAt = (pixelX: number, pixelY: number) => worldPixelToMetres(pixelX, pixelY, zoom);
  const middle = metresAt(left + width / 2, top + height / 2);
  const topLeft = metresAt(left, top);
  const bottomRight = metresAt(left + width, top + height);
  return {
    view: {
      zoom,
      width,
      height,
      devicePixelRatio,
      left,
      top,
      centre: toLonLat(middle),
      bounds: {
        west: toLonLat(topLeft).lon,
        north: toLonLat(topLeft).lat,
        east: toLonLat(bottomRight).lon,
        south: toLonLat(bottomRight).lat,
      },
    },
    transform: { scale, centreX: middle.x, centreY: middle.y, pixelCentreX: width / 2, pixelCentreY: height / 2 },
  };
}

/** The view's extent in metres, for skipping features it cannot show. */
export function viewExtent({ transform }: Placement, marginPixels: number): BBox {
  const halfWidth = (transform.pixelCentreX + marginPixels) / transform.scale;
  const halfHeight = (transform.pixelCentreY + marginPixels) / transform.scale;
  return {
    xmin: transform.centreX - halfWidth,
    xmax: transform.centreX + halfWidth,
    ymin: transform.centreY - halfHeight,
    ymax: transform.centreY + halfHeight,
  };
}

