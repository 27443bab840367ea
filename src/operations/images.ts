import type { KeyGrant } from '../auth/keys.ts';
import type { ImageCollection, FeatureImage } from '../envelope/model.ts';
import { BadRequestError } from '../errors.ts';
import { bboxOf } from '../geometry/bbox.ts';
import { simplifyGeometry } from '../geometry/simplify.ts';
import { hotSpotsFor } from '../hotspots/hotspots.ts';
import type { ImagesRequest } from '../params/images.ts';
import { toDrawingSpace } from '../projection/drawing-space.ts';
import { fitExtent } from '../projection/fit.ts';
import { pixelProjection } from '../projection/pixel-projection.ts';
import type { RenderPool } from '../raster/render-pool.ts';
import type { ShapefileCatalog } from '../shapefile/types.ts';
import { renderSvg } from '../svg/render-svg.ts';
import { openForKey, readFeatures, type SelectedFeature } from './features.ts';

export interface ImagesServices {
  catalog: ShapefileCatalog;
  renderer: RenderPool;
  config: { limits: { maxPixelsPerRequest: number } };
}

/**
 * The images operation: read the listed features, map them into the drawing space, fit
 * each image to its own features, draw SVG and rasterize it off the event loop.
 */
export async function createImages(
  request: ImagesRequest,
  grant: KeyGrant,
  services: ImagesServices,
): Promise<ImageCollection> {
  const { width, height } = request.size;
  const imageCount = request.singleImage ? 1 : request.fids.length;
  checkPixelBudget(imageCount, width, height, services.config.limits.maxPixelsPerRequest);

  const useCache = !request.noCache;
  const shapefile = await openForKey(services.catalog, request.file, grant);
  const selected = await readFeatures(shapefile, request.fids, useCache);
  const drawn = selected.map(({ ref, geometry }) => ({
    ref,
    geometry: toDrawingSpace(
      request.reduceTol > 0 ? simplifyGeometry(geometry, request.reduceTol) : geometry,
      shapefile.crs.geographic,
    ),
  }));

  const groups: SelectedFeature[][] = request.singleImage ? [drawn] : drawn.map((feature) => [feature]);
  // One image at a time per request: a request for many images then waits its turn
  // between other requests' renders instead of filling the queue ahead of them.
  const images: FeatureImage[] = [];
  for (const [index, group] of groups.entries()) {
    const transform = fitExtent(bboxOf(group.map((feature) => feature.geometry))!, width, height, request.buffer);
    const svg = renderSvg({ width, height, style: request.style, features: group, projection: pixelProjection(transform) });
    images.push({
      itemId: index + 1,
      featureId: request.singleImage ? -1 : group[0].ref.parent,
      png: await services.renderer.render(svg, width, height),
      hotSpots: request.includeHotSpots
        ? hotSpotsFor(
            group.map(({ ref, geometry }) => ({ fid: ref.text, featureId: ref.parent, geometry })),
            transform,
            { width, height, lineWidth: request.style.lineWidth, pointRadius: request.style.pointRadius },
          )
        : null,
    });
  }
  return { itemId: 1, shapefile: shapefile.name, images };
}

/** Refuses, before anything is read or allocated, a request that would make too many pixels. */
function checkPixelBudget(imageCount: number, width: number, height: number, maxPixels: number) {
  const pixels = imageCount * width * height;
  if (pixels > maxPixels) {
    throw new BadRequestError(
      `The request would draw ${imageCount} image(s) of ${width}x${height} pixels (${pixels} pixels); ` +
        `at most ${maxPixels} pixels are allowed per request. Ask for fewer ids, singleImage=1 or a smaller size.`,
    );
  }
}
