/**
 * The images operation: the selection (ids, or a `where=` filter), the budgets that can be
 * checked on the main thread, then one drawing job per image, in turn.
 */
import type { Config } from '../config/schema.ts';
import type { JobPool } from '../jobs/job-pool.ts';
import type { ImageCollection } from '../envelope/model.ts';
import { IMAGE_CONTENT_TYPES } from '../params/fields.ts';
import type { ImagesRequest } from '../params/images.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import type { RequestTiming } from '../stages.ts';
import { answerLimitFor } from './answer-limit-advice.ts';
import { checkPixelBudget } from './pixel-budget.ts';
import { legendBytes } from '../envelope/legend-parts.ts';
import { selectRefs } from './select.ts';
import { entryList, featureList, listLength } from '../params/fid.ts';
import { featureStyling, type ThematicServices } from './thematic.ts';

export interface ImagesServices extends ThematicServices {
  jobs: JobPool;
  config: {
    limits: Pick<
      Config['limits'],
      | 'maxPixelsPerRequest'
      | 'maxImageVertices'
      | 'maxRings'
      | 'maxDrawingWork'
      | 'maxIds'
      | 'maxSize'
      | 'maxHotSpots'
      | 'maxHotSpotAttributeBytes'
      | 'maxAnswerBytes'
      | 'maxCategories'
      | 'maxLabels'
    >;
  };
}

/**
 * One image at a time per request: a request for many images then waits its turn between
 * other requests' images instead of filling the queue ahead of them. The first job checks
 * the whole request's vertex and hot spot budgets before anything is decoded. Each job
 * writes its image's part of the answer, within what the earlier parts left of the answer's
 * limit. format=png and svg answer the first picture alone: only that one is drawn.
 */
export async function createImages(
  request: ImagesRequest,
  files: ShapefileFiles,
  services: ImagesServices,
  signal: AbortSignal,
  timing?: RequestTiming,
  /** The shapefile's version as the caching step read it: what its classes are kept under. */
  version?: object,
): Promise<ImageCollection> {
  const { width, height } = request.size;
  const { limits } = services.config;
  const listed =
    request.where === undefined
      ? featureList(request.fids!)
      : await selectRefs(services.jobs, files, request.where, request.fids, { name: 'limits.maxIds', max: limits.maxIds }, signal, timing);
  const pictureAlone = IMAGE_CONTENT_TYPES[request.format] !== undefined;
  const imageCount = request.singleImage ? 1 : listLength(listed);
  const drawnCount = pictureAlone ? 1 : imageCount;
  const imageRefs = (index: number) => (request.singleImage ? listed : entryList(listed, index));
  // Every feature the request draws, for the budgets its first job checks.
  const requestRefs = request.singleImage || drawnCount === imageCount ? listed : imageRefs(0);
  checkPixelBudget(drawnCount, request.size, request.scale, { maxPixels: limits.maxPixelsPerRequest, maxSize: limits.maxSize });

  // Images take no culture: their legends read in English.
  const styled = await featureStyling(request.thematic, 'English', { files, where: request.where, version, noCache: request.noCache, services, signal, timing });
  const answer = answerLimitFor(limits.maxAnswerBytes, 'images', request.format);
  const parts: Uint8Array[] = [];
  let usedBytes = styled?.legend ? legendBytes(styled.legend, request.format) : 0;
  for (let index = 0; index < drawnCount; index++) {
    const image = await services.jobs.run(
      'image',
      {
        files,
        refs: imageRefs(index),
        ...(index === 0 ? { requestRefs } : {}),
        itemId: index + 1,
        featureId: request.singleImage ? -1 : listed.parents[index],
        width,
        height,
        pixelRatio: request.scale,
        buffer: request.buffer,
        style: request.style,
        ...(styled ? { styling: styled.styling } : {}),
        reduceTol: request.reduceTol,
        // The picture alone carries no hot spots: none are made, and none are budgeted.
        includeHotSpots: request.includeHotSpots && !pictureAlone,
        hotSpotFields: request.hotSpotFields,
        format: request.format,
        answer: { ...answer, usedBytes },
        useCache: !request.noCache,
        limits: {
          maxImageVertices: limits.maxImageVertices,
          maxRings: limits.maxRings,
          maxDrawingWork: limits.maxDrawingWork,
          maxHotSpots: limits.maxHotSpots,
          maxHotSpotAttributeBytes: limits.maxHotSpotAttributeBytes,
          maxLabels: limits.maxLabels,
        },
      },
      signal,
    );
    timing?.job(image.stages);
    parts.push(image.part);
    usedBytes += image.part.length;
  }
  return { itemId: 1, shapefile: files.name, images: parts, ...(styled?.legend ? { legend: styled.legend } : {}) };
}
