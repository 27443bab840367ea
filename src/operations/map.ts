/**
 * The map operation apart from HTTP: from a parsed request to the drawn collection, with its
 * budgets, so that the route only parses and answers, and the steps (view, basemap,
 * features) read in one place.
 */
import type { BasemapRegistry } from '../basemap/registry.ts';
import type { Config } from '../config/schema.ts';
import type { JobPool } from '../jobs/job-pool.ts';
import type { InViewQuery, RecordsInView } from '../drawing/records-in-view.ts';
import type { ImageCollection } from '../envelope/model.ts';
import { fitZoom, placeView, viewExtent } from '../map/view.ts';
import { IMAGE_CONTENT_TYPES } from '../params/fields.ts';
import type { MapRequest } from '../params/map.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import type { RequestTiming } from '../stages.ts';
import { answerLimitFor } from './answer-limit-advice.ts';
import { checkPixelBudget } from './pixel-budget.ts';
import { legendBytes } from '../envelope/legend-parts.ts';
import { selectRefs } from './select.ts';
import { featureList } from '../params/fid.ts';
import { featureStyling, type ThematicServices } from './thematic.ts';

export interface MapServices extends ThematicServices {
  jobs: JobPool;
  basemaps: BasemapRegistry;
  config: {
    limits: Pick<
      Config['limits'],
      | 'maxMapFeatures'
      | 'maxMapVertices'
      | 'maxRings'
      | 'maxDrawingWork'
      | 'maxPixelsPerRequest'
      | 'maxSize'
      | 'maxHotSpots'
      | 'maxHotSpotAttributeBytes'
      | 'maxAnswerBytes'
      | 'maxCategories'
      | 'maxLabels'
    >;
    render: Pick<Config['render'], 'jpegQuality'>;
  };
}

export interface MapResult {
  collection: ImageCollection;
  /** The basemap provider's attribution, for the envelope's Copyright. */
  attribution: string;
  /** A fallback drew the basemap: the picture is not what the request stands for, and is not to be kept. */
  byFallback: boolean;
}

/**
 * The map operation: the features (or the file's extent) give the view, in Web Mercator at
 * a whole zoom level; the basemap provider draws its layers for that view; the features
 * are drawn over them. Reading, reprojecting, drawing and writing the map's part of the
 * answer run on the drawing workers; the budgets of features, vertices and hot spots are
 * checked there before anything is decoded or the basemap drawn. The steps stay apart, with
 * the basemap drawn on this thread between them: a worker must not sit idle while a
 * provider fetches tiles, and a crossing between threads was measured at 0.1 ms alone (a
 * round trip carrying a warm map's tiles, on two cores) and 0.3–0.5 ms within a request,
 * against 10–50 ms for a warm 640×480 map: folding steps together would not pay.
 */
export async function createMap(
  request: MapRequest,
  files: ShapefileFiles,
  services: MapServices,
  signal: AbortSignal,
  timing?: RequestTiming,
  /** The shapefile's version as the caching step read it: what its classes are kept under. */
  version?: object,
): Promise<MapResult> {
  const { width, height } = request.size;
  const { maxMapFeatures, maxMapVertices, maxRings, maxHotSpots, maxHotSpotAttributeBytes } = services.config.limits;
  const limits = { maxMapFeatures, maxMapVertices, maxRings, maxHotSpots, maxHotSpotAttributeBytes };
  // The picture alone carries no hot spots: none are made, and none are budgeted.
  const includeHotSpots = request.includeHotSpots && IMAGE_CONTENT_TYPES[request.format] === undefined;
  const hotSpots = { includeHotSpots, hotSpotFields: request.hotSpotFields };
  const { maxPixelsPerRequest: maxPixels, maxSize } = services.config.limits;
  checkPixelBudget(1, request.size, request.scale, { maxPixels, maxSize });
  const useCache = !request.noCache;
  const refs =
    request.where === undefined
      ? request.fids && featureList(request.fids)
      : await selectRefs(services.jobs, files, request.where, request.fids, { name: 'limits.maxMapFeatures', max: maxMapFeatures }, signal, timing);

  const { fileExtent, listed, stages } = await services.jobs.run('map-features', { files, refs, useCache, limits, ...hotSpots }, signal);
  timing?.job(stages);
  // Without fid the features' extent is the file's: its header holds it, no scan needed.
  const extent = listed && !request.useBoundingBox ? listed.extent : fileExtent;
  const centre = { x: (extent.xmin + extent.xmax) / 2, y: (extent.ymin + extent.ymax) / 2 };
  const zoom = request.zoom ?? fitZoom(extent, width, height, request.buffer);
  const placement = placeView(centre, zoom, width, height, request.scale);
  // Strokes and point symbols reach beyond their geometry.
  const visible = viewExtent(placement, request.style.lineWidth + request.style.pointRadius + 2);
  const features = listed?.features ?? (await recordsInView(services.jobs, { files, fileExtent, visible, limits, ...hotSpots }, signal, timing));
  // After the budgets of features and vertices: a map they refuse costs no pass over the .dbf.
  const styled = await featureStyling(request.thematic, request.culture, { files, where: request.where, version, noCache: request.noCache, services, signal, timing });

  const basemap = await services.basemaps.render({ view: placement.view, type: request.type, culture: request.culture, signal });
  timing?.lap('basemap');
  const drawn = await services.jobs.run(
    'map',
    {
      files,
      features,
      fileExtent,
      transform: placement.transform,
      visible,
      width,
      height,
      pixelRatio: request.scale,
      style: request.style,
      ...(styled ? { styling: styled.styling } : {}),
      basemap,
      ...hotSpots,
      format: request.format,
      itemId: 1,
      featureId: -1,
      answer: { ...answerLimitFor(services.config.limits.maxAnswerBytes, 'map', request.format), usedBytes: styled?.legend ? legendBytes(styled.legend, request.format) : 0 },
      jpegQuality: services.config.render.jpegQuality,
      useCache,
      limits: { ...limits, maxLabels: services.config.limits.maxLabels, maxDrawingWork: services.config.limits.maxDrawingWork },
    },
    signal,
  );
  timing?.job(drawn.stages);
  return {
    collection: { itemId: 1, shapefile: files.name, images: [drawn.part], ...(styled?.legend ? { legend: styled.legend } : {}) },
    attribution: basemap.attribution.trim(),
    byFallback: basemap.byFallback,
  };
}

/** The records of a map without fid that reach into its view, its budgets checked over them before the basemap is drawn. */
async function recordsInView(jobs: JobPool, job: InViewQuery, signal: AbortSignal, timing?: RequestTiming): Promise<RecordsInView> {
  const { stages, ...inView } = await jobs.run('map-in-view', job, signal);
  timing?.job(stages);
  return inView;
}
