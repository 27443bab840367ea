/**
 * A shapefile feature as a GeoJSON Feature (RFC 7946) in WGS 84 lon/lat, as text: the
 * geometry types GDAL gives the record (a single point, line or polygon as itself, more as
 * their Multi type; a MultiPoint file's records always MultiPoint), null for a null shape.
 */
import type { Shape } from '../geometry/shape.ts';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { shapeToGeoJson } from '../geometry/to-geojson.ts';
import type { Geometry } from '../geometry/types.ts';
import { reprojectShape } from '../map/reproject.ts';
import type { LonLatTransform } from '../shapefile/crs.ts';
import type { AttributeValue } from '../shapefile/dbf.ts';
import { baseShapeType } from '../shapefile/shp-record.ts';
import { ShapeType } from '../shapefile/types.ts';

/**
 * Degrees are written to 9 decimals (0.1 mm), as PostGIS's ST_AsGeoJSON does by default:
 * the digits past that are the transformation's noise, and would make the text half again
 * as long.
 */
const DECIMALS = 1e9;

export interface FeatureSource {
  fid: number;
  shape: Shape | null;
  properties: Record<string, AttributeValue>;
}

export interface GeometrySettings {
  /** The file's shape type. */
  shapeType: number;
  toLonLat: LonLatTransform;
  /** The `.shp` file's name, for a record whose coordinates cannot be placed. */
  shpFile: string;
}

export function featureJson({ fid, shape, properties }: FeatureSource, settings: GeometrySettings, checkpoint: Checkpoint): string {
  const geometry = shape && geometryOf(shapeInLonLat(shape, fid, settings, checkpoint), settings.shapeType);
  return JSON.stringify({ type: 'Feature', id: fid, geometry: geometry ?? null, properties });
}

/** The Feature with its geometry's type alone (no coordinates, so none reprojected). */
export function featureTypeJson({ fid, shape, properties }: FeatureSource, settings: Pick<GeometrySettings, 'shapeType'>): string {
  const geometry = shape && geometryOf(shape, settings.shapeType);
  return JSON.stringify({ type: 'Feature', id: fid, geometry: geometry ? { type: geometry.type } : null, properties });
}

/** The shape in WGS 84 lon/lat, to 9 decimals; a vertex its CRS cannot place makes the record damaged. */
export function shapeInLonLat(shape: Shape, fid: number, { toLonLat, shpFile }: GeometrySettings, checkpoint: Checkpoint): Shape {
  const writeLonLat = (x: number, y: number, out: Float64Array, at: number) => {
    const [lon, lat] = toLonLat(x, y);
    out[at] = Math.round(lon * DECIMALS) / DECIMALS;
    out[at + 1] = Math.round(lat * DECIMALS) / DECIMALS;
  };
  return reprojectShape(shape, writeLonLat, fid, shpFile, checkpoint);
}

function geometryOf(shape: Shape, shapeType: number): Geometry | undefined {
  const geometry = shapeToGeoJson(shape);
  if (!geometry || geometry.coordinates.length > 1 || baseShapeType(shapeType) === ShapeType.MultiPoint) return geometry;
  switch (geometry.type) {
    case 'MultiPoint':
      return { type: 'Point', coordinates: geometry.coordinates[0] };
    case 'MultiLineString':
      return { type: 'LineString', coordinates: geometry.coordinates[0] };
    case 'MultiPolygon':
      return { type: 'Polygon', coordinates: geometry.coordinates[0] };
    default:
      return geometry;
  }
}
