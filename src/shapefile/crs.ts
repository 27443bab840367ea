/**
 * The coordinate reference system of a shapefile, from its `.prj` (ESRI or OGC WKT), and
 * the transform from it to WGS84 longitude/latitude.
 */
import proj4 from 'proj4';
import type { BBox } from '../geometry/types.ts';
import { prjWktForProj4 } from './prj-wkt.ts';
import type { Crs } from './types.ts';

/**
 * EPSG:28992 with its datum shift. ESRI `.prj` files for RD New leave the shift out,
 * which puts features about 100 m from where they are.
 */
export const RD_NEW_PROJ4 =
  '+proj=sterea +lat_0=52.15616055555555 +lon_0=5.38763888888889 +k=0.9999079 +x_0=155000 +y_0=463000' +
  ' +ellps=bessel +towgs84=565.417,50.3319,465.552,-0.398957,0.343988,-1.8774,4.0725 +units=m +no_defs';

const LON_LAT_TOLERANCE = 1e-6;

export interface CrsResult {
  crs: Crs;
  /** Why the `.prj` was not used, when there was one; the caller logs it. */
  problem?: string;
}

/** The CRS from `.prj` text (undefined: no `.prj`); `bbox` decides when there is none usable. */
export function crsFromPrj(prj: string | undefined, bbox: BBox): CrsResult {
  const text = prj?.replace(/^\uFEFF/, '').trim();
  if (!text) return { crs: crsWithoutPrj(bbox) };
  const keyword = /^([A-Za-z_]+)\s*\[/.exec(text)?.[1].toUpperCase();
  const name = /^[A-Za-z_]+\s*\[\s*"([^"]*)"/.exec(text)?.[1];
  if (!keyword) return { crs: crsWithoutPrj(bbox), problem: 'it is not WKT (no KEYWORD[ at its start).' };
  const geographic = ['GEOGCS', 'GEOGCRS', 'GEOGRAPHICCRS'].includes(keyword);
  if (!geographic && isRdNew(text, name)) return { crs: { geographic: false, proj4: RD_NEW_PROJ4, name } };
  const reading = prjWktForProj4(text);
  // Not known rather than guessed: such coordinates could pass for longitudes and latitudes.
  if ('problem' in reading) return { crs: { geographic: false }, problem: reading.problem };
  const definition = reading.wkt;
  try {
    proj4(definition, 'WGS84');
  } catch (error) {
    const reason = error instanceof Error && error.message ? error.message : String(error);
    return { crs: crsWithoutPrj(bbox), problem: `proj4 cannot read it (${reason}).` };
  }
  return { crs: { geographic, proj4: definition, name } };
}

/** Lon/lat when the bounding box fits the globe; otherwise unknown. */
export function crsWithoutPrj(bbox: BBox): Crs {
  const t = LON_LAT_TOLERANCE;
  const geographic =
    bbox.xmin >= -180 - t && bbox.xmax <= 180 + t && bbox.ymin >= -90 - t && bbox.ymax <= 90 + t;
  return { geographic };
}

export type LonLatTransform = (x: number, y: number) => [number, number];

/**
 * Transforms are kept with the CRS object, not by its `.prj` text: one lives as long as the
 * open shapefile version that holds its CRS (the open-shapefile pool bounds those), so no
 * number of distinct `.prj` texts can pile up here.
 */
const transforms = new WeakMap<Crs, LonLatTransform>();

/** Maps the CRS's coordinates to WGS84 [lon, lat]; undefined when the CRS is unknown. */
export function toWgs84(crs: Crs): LonLatTransform | undefined {
  const known = transforms.get(crs);
  if (known) return known;
  let transform: LonLatTransform;
  if (crs.proj4) {
    const converter = proj4(crs.proj4, 'WGS84');
    transform = (x, y) => {
      const [lon, lat] = converter.forward([x, y]);
      return [lon, lat];
    };
  } else if (crs.geographic) {
    transform = (x, y) => [x, y];
  } else {
    return undefined;
  }
  transforms.set(crs, transform);
  return transform;
}

const inverses = new WeakMap<Crs, LonLatTransform>();

/**
 * Maps WGS84 [lon, lat] to the CRS's coordinates; undefined when the CRS is unknown. A place
 * the projection cannot show (a pole in Mercator) is NaN, as a non-finite result is
 * everywhere else: proj4js gives null for it, or throws.
 */
export function fromWgs84(crs: Crs): LonLatTransform | undefined {
  if (!crs.proj4) return crs.geographic ? (lon, lat) => [lon, lat] : undefined;
  let inverse = inverses.get(crs);
  if (!inverse) {
    const converter = proj4(crs.proj4, 'WGS84');
    inverse = (lon, lat) => {
      try {
        const point = converter.inverse([lon, lat]);
        return point ? [point[0], point[1]] : [NaN, NaN];
      } catch {
        return [NaN, NaN];
      }
    };
    inverses.set(crs, inverse);
  }
  return inverse;
}

/** RD New by name, or by its stereographic parameters on Bessel. */
function isRdNew(wkt: string, name: string | undefined): boolean {
  if (name && /\bRD[_ ]?New\b/i.test(name)) return true;
  if (!/PROJECTION\s*\[\s*"(Double|Oblique)_?Stereographic"/i.test(wkt) || !/Bessel/i.test(wkt)) return false;
  const parameters = new Map<string, number>();
  for (const match of wkt.matchAll(/PARAMETER\s*\[\s*"([^"]+)"\s*,\s*([-+0-9.eE]+)/g)) {
    parameters.set(match[1].toLowerCase(), Number(match[2]));
  }
  const near = (key: string, value: number, tolerance: number) =>
    Math.abs((parameters.get(key) ?? NaN) - value) <= tolerance;
  return (
    near('latitude_of_origin', 52.15616055555555, 1e-6) &&
    near('central_meridian', 5.38763888888889, 1e-6) &&
    near('scale_factor', 0.9999079, 1e-9) &&
    near('false_easting', 155000, 1e-3) &&
    near('false_northing', 463000, 1e-3)
  );
}
