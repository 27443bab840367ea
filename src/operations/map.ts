import type { KeyGrant } from '../auth/keys.ts';
import type { BasemapRegistry } from '../basemap/registry.ts';
import type { ImageCollection } from '../envelope/model.ts';
import { bboxOf } from '../geometry/bbox.ts';
import { hotSpotsFor } from '../hotspots/hotspots.ts';
import { renderMapSvg } from '../map/map-svg.ts';
import { bboxToMercator, geometryToMercator, mercatorTransform } from '../map/reproject.ts';
import { listedInView, scanInView, type MapFeature, type MapLimits } from '../map/select-features.ts';
import { fitZoom, placeView, viewExtent } from '../map/view.ts';
import type { MapRequest } from '../params/map.ts';
import { pixelProjection } from '../projection/pixel-projection.ts';
import type { RenderPool } from '../raster/render-pool.ts';
import type { ShapefileCatalog } from '../shapefile/types.ts';
import { openForKey, readFeatures } from './features.ts';

export interface MapServices {
  catalog: ShapefileCatalog;
  renderer: RenderPool;
  basemaps: BasemapRegistry;
  config: { limits: MapLimits };
}

export interface MapResult {
  collection: ImageCollection;
  /** The basemap provider's attribution, for the envelope's Copyright. */
  attribution: string;
}

/**
 * The map operation: features reprojected into Web Mercator, a view fitted to them (or to
 * the file) at a whole zoom level, the basemap fetched while the features are read, then one
 * SVG rasterized off the event loop. `signal` ends the work when the request's time is up.
 */
export async function createMap(
  request: MapRequest,
  grant: KeyGrant,
  services: MapServices,
  signal: AbortSignal,
): Promise<MapResult> {
  const { width, height } = request.size;
  const useCache = !request.noCache;
  const shapefile = await openForKey(services.catalog, request.file, grant);
  const toMercator = mercatorTransform(shapefile);
  const fileExtent = bboxToMercator(shapefile.bbox, toMercator);

  const listed: MapFeature[] | undefined =
    request.fids &&
    (await readFeatures(shapefile, request.fids, useCache)).map(({ ref, geometry }) => ({
      fid: ref.text,
      featureId: ref.parent,
      geometry: geometryToMercator(geometry, toMercator),
    }));
  // Without fid the features' extent is the file's: its header holds it, no scan needed.
  const extent = listed && !request.useBoundingBox ? bboxOf(listed.map((feature) => feature.geometry))! : fileExtent;
  const centre = { x: (extent.xmin + extent.xmax) / 2, y: (extent.ymin + extent.ymax) / 2 };
  const zoom = request.zoom ?? fitZoom(extent, width, height, request.buffer);
  const placement = placeView(centre, zoom, width, height);
  const { scale } = placement.transform;

  // Strokes and point symbols reach beyond their geometry.
  const visible = viewExtent(placement, request.style.lineWidth + request.style.pointRadius + 2);
  const limits = services.config.limits;
  const [basemap, features] = await Promise.all([
    services.basemaps.render({ view: placement.view, type: request.type, culture: request.culture, signal }),
    (async () =>
      listed
        ? listedInView(listed, visible, scale, limits)
        : scanInView(shapefile, toMercator, fileExtent, visible, scale, limits, signal))(),
  ]);

  const { svg, fonts } = renderMapSvg({
    width,
    height,
    basemap,
    features,
    style: request.style,
    projection: pixelProjection(placement.transform),
  });
  const png = await services.renderer.render(svg, width, height, fonts);
  const hotSpots = request.includeHotSpots
    ? hotSpotsFor(features, placement.transform, {
        width,
        height,
        lineWidth: request.style.lineWidth,
        pointRadius: request.style.pointRadius,
      })
    : null;
  return {
    collection: { itemId: 1, shapefile: shapefile.name, images: [{ itemId: 1, featureId: -1, png, hotSpots }] },
    attribution: basemap.attribution.trim(),
  };
}
