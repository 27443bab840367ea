import type { Config } from '../config/schema.ts';
import type { DrawingPool } from '../drawing/drawing-pool.ts';
import type { FeatureImage, ImageCollection } from '../envelope/model.ts';
import type { ImagesRequest } from '../params/images.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import type { RequestTiming } from '../stages.ts';
import { checkPixelBudget } from './pixel-budget.ts';
import { selectRefs } from './select.ts';

export interface ImagesServices {
  drawing: DrawingPool;
  config: { limits: Pick<Config['limits'], 'maxPixelsPerRequest' | 'maxImageVertices' | 'maxRings' | 'maxIds' | 'maxSize'> };
}

/**
 * The images operation: one drawing job per image, in turn. One image at a time per
 * request: a request for many images then waits its turn between other requests' images
 * instead of filling the queue ahead of them. The first job checks the whole request's
 * vertex budget before anything is decoded.
 */
export async function createImages(
  request: ImagesRequest,
  files: ShapefileFiles,
  services: ImagesServices,
  signal: AbortSignal,
  timing?: RequestTiming,
): Promise<ImageCollection> {
  const { width, height } = request.size;
  const { limits } = services.config;
  const fids =
    request.where === undefined
      ? request.fids!
      : await selectRefs(services.drawing, files, request.where, request.fids, { name: 'maxIds', max: limits.maxIds }, signal, timing);
  const groups = request.singleImage ? [fids] : fids.map((ref) => [ref]);
  checkPixelBudget(groups.length, request.size, request.scale, { maxPixels: limits.maxPixelsPerRequest, maxSize: limits.maxSize });

  const images: FeatureImage[] = [];
  for (const [index, refs] of groups.entries()) {
    const drawn = await services.drawing.drawImage(
      {
        files,
        refs,
        ...(index === 0 ? { requestRefs: fids } : {}),
        width,
        height,
        pixelRatio: request.scale,
        buffer: request.buffer,
        style: request.style,
        reduceTol: request.reduceTol,
        includeHotSpots: request.includeHotSpots,
        hotSpotFields: request.hotSpotFields,
        format: request.format,
        useCache: !request.noCache,
        limits: { maxImageVertices: limits.maxImageVertices, maxRings: limits.maxRings },
      },
      signal,
    );
    timing?.job(drawn.stages);
    images.push({ itemId: index + 1, featureId: request.singleImage ? -1 : refs[0].parent, ...drawn });
  }
  return { itemId: 1, shapefile: files.name, images };
}
