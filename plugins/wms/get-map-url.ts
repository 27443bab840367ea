/** The GetMap request of a view: its URL, built on the operator's base URL. */
import { viewBoundsInMetres, type ImageSize, type MapView } from '../../src/sdk/plugin.ts';

export type WmsVersion = '1.3.0' | '1.1.1';

export interface GetMapSettings {
  /** The server's address; may hold query parameters of its own (a map= of MapServer, a key). */
  url: string;
  version: WmsVersion;
  layers: string;
  styles: string;
  format: 'image/png' | 'image/jpeg';
  transparent: boolean;
  /** Vendor parameters, appended as they are. */
  params: Record<string, string>;
}

/**
 * The parameters the plugin sets for every map. WMS parameter names are case-insensitive,
 * so a base URL copied from a GetMap example loses its own copies of these (whatever their
 * case) instead of sending both.
 */
export const GET_MAP_PARAMETERS: ReadonlySet<string> = new Set([
  'SERVICE', 'VERSION', 'REQUEST', 'LAYERS', 'STYLES', 'CRS', 'SRS', 'BBOX', 'WIDTH', 'HEIGHT', 'FORMAT', 'TRANSPARENT', 'EXCEPTIONS',
]);

/** The image a view's GetMap asks for, in real pixels; it is placed over the view's CSS pixels. */
export function getMapSize(view: MapView): ImageSize {
  return { width: Math.round(view.width * view.devicePixelRatio), height: Math.round(view.height * view.devicePixelRatio) };
}

/** A function from a view to its GetMap URL: everything but the extent and size is fixed at start-up. */
export function getMapUrlBuilder(settings: GetMapSettings): (view: MapView) => string {
  const base = new URL(settings.url);
  for (const key of [...base.searchParams.keys()]) if (GET_MAP_PARAMETERS.has(key.toUpperCase())) base.searchParams.delete(key);
  const fixed = {
    SERVICE: 'WMS',
    VERSION: settings.version,
    REQUEST: 'GetMap',
    LAYERS: settings.layers,
    STYLES: settings.styles,
    // 1.3.0 renamed SRS to CRS. EPSG:3857 is x,y (east, north) in both versions; the swap
    // 1.3.0 brought is for geographic CRSs such as EPSG:4326 only.
    [settings.version === '1.3.0' ? 'CRS' : 'SRS']: 'EPSG:3857',
    FORMAT: settings.format,
    TRANSPARENT: settings.transparent ? 'TRUE' : 'FALSE',
    // Errors as an XML report, not drawn into the image (INIMAGE), so they can be told apart from a map.
    EXCEPTIONS: settings.version === '1.3.0' ? 'XML' : 'application/vnd.ogc.se_xml',
  };
  return (view) => {
    const url = new URL(base);
    const { xmin, ymin, xmax, ymax } = viewBoundsInMetres(view);
    const { width, height } = getMapSize(view);
    const perView = { BBOX: [xmin, ymin, xmax, ymax].join(','), WIDTH: String(width), HEIGHT: String(height) };
    for (const [key, value] of Object.entries({ ...fixed, ...perView, ...settings.params })) url.searchParams.set(key, value);
    return url.href;
  };
}
