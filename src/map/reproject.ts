/**
 * From a shapefile's own coordinates to Web Mercator metres, through WGS84 with proj4
 * (datum shifts included, as src/shapefile/crs.ts defines them).
 */
import type { Position } from 'geojson';
import proj4 from 'proj4';
import { BadRequestError } from '../errors.ts';
import type { BBox, Geometry } from '../geometry/types.ts';
import { mapPositionLists } from '../geometry/map-coordinates.ts';
import { lonLatToWebMercator } from '../projection/drawing-space.ts';
import { toWgs84 } from '../shapefile/crs.ts';
import type { Crs, Shapefile } from '../shapefile/types.ts';
import { toLonLat } from './view.ts';


export type ToMercator = (position: Position) => Position;

/** The shapefile's transform into Web Mercator; 400 when its CRS is unknown. */
export function mercatorTransform(shapefile: Shapefile): ToMercator {
  const toLonLat = toWgs84(shapefile.crs);
  if (!toLonLat) {
    throw new BadRequestError(
      `Shapefile '${shapefile.name}' cannot be drawn on a map: its coordinate reference system is unknown ` +
        '(it has no usable .prj and its coordinates are not longitude/latitude).',
    );
  }
  return ([x, y]) => lonLatToWebMercator(toLonLat(x, y));
}

export function geometryToMercator(geometry: Geometry, toMercator: ToMercator): Geometry {
  return mapPositionLists(geometry, (positions) => positions.map(toMercator));
}

/** Points sampled along each edge: enough to follow the curve a projected edge makes in the other projection. */
const EDGE_SAMPLES = 16;

/**
 * The Web Mercator box around a box in the file's units. Edges are sampled, since a
 * straight edge in one projection is a curve in another; exact for lon/lat boxes.
 */
export function bboxToMercator(box: BBox, toMercator: ToMercator): BBox {
  return transformBox(box, toMercator);
}

/**
 * The box in the file's units around a Web Mercator box, for testing records against the
 * view before decoding them; undefined when the view reaches where the file's CRS is not
 * defined (the caller then tests every record).
 */
export function mercatorBoxToFile(box: BBox, crs: Crs): BBox | undefined {
  const inverse = crs.proj4 ? proj4(crs.proj4, 'WGS84').inverse : undefined;
  const toFile = ([x, y]: Position): Position => {
    const { lon, lat } = toLonLat({ x, y });
    return inverse ? inverse([lon, lat]) : [lon, lat];
  };
  const result = transformBox(box, toFile);
  return [result.xmin, result.ymin, result.xmax, result.ymax].every(Number.isFinite) ? result : undefined;
}

function transformBox(box: BBox, transform: (position: Position) => Position): BBox {
  const result: BBox = { xmin: Infinity, ymin: Infinity, xmax: -Infinity, ymax: -Infinity };
  const add = (x: number, y: number) => {
    const [mx, my] = transform([x, y]);
    result.xmin = Math.min(result.xmin, mx);
    result.xmax = Math.max(result.xmax, mx);
    result.ymin = Math.min(result.ymin, my);
    result.ymax = Math.max(result.ymax, my);
  };
  const width = box.xmax - box.xmin;
  const height = box.ymax - box.ymin;
  const samples = width === 0 && height === 0 ? 1 : EDGE_SAMPLES;
  for (let i = 0; i < samples; i++) {
    const t = i / samples;
    add(box.xmin + t * width, box.ymin);
    add(box.xmax, box.ymin + t * height);
    add(box.xmax - t * width, box.ymax);
    add(box.xmin, box.ymax - t * height);
  }
  return result;
}
