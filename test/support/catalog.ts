/**
 * The shapefile reading of the drawing workers (data folder, open-inside checks, record
 * index, decoding), driven directly on the test's thread, with geometry handed back as the
 * GeoJSON types the records hold, so that tests can state what a file contains.
 */
import { realpathSync } from 'node:fs';
import type { BBox, Geometry } from '../../src/geometry/types.ts';
import { shapeToGeoJson } from '../../src/geometry/to-geojson.ts';
import type { Shape } from '../../src/geometry/shape.ts';
import { NotFoundError } from '../../src/errors.ts';
import { createDataFolder } from '../../src/shapefile/data-folder.ts';
import type { AttributeValue } from '../../src/shapefile/dbf.ts';
import type { OpenShapefile } from '../../src/shapefile/file-set.ts';
import { createOpenShapefiles } from '../../src/shapefile/open-shapefiles.ts';
import { baseShapeType } from '../../src/shapefile/shp-record.ts';
import { ShapeType, type Crs } from '../../src/shapefile/types.ts';

export interface TestShapefile {
  name: string;
  shapeType: number;
  featureCount: number;
  bbox: BBox;
  crs: Crs;
  readGeometry(fid: number, options: { useCache: boolean }): Promise<Geometry | null>;
  readAttributes(fid: number): Promise<Record<string, AttributeValue>>;
  /** The open version underneath, for walks. */
  open: OpenShapefile;
}

export interface TestCatalog {
  open(name: string): Promise<TestShapefile | undefined>;
  list(): Promise<string[]>;
  close(): Promise<void>;
}

export interface CatalogLogger {
  warn(details: { problem: string }, message: string): void;
}

const noCheckpoint = () => undefined;
const MAX_RINGS = 100_000;

export function createCatalog(options: { dataDir: string; cacheBytes: number; logger?: CatalogLogger }): TestCatalog {
  const folder = createDataFolder(options.dataDir);
  const shapefiles = createOpenShapefiles({
    realRoot: realpathSync(options.dataDir),
    cacheBytes: options.cacheBytes,
    maxOpen: 64,
    onProblem: (problem) => options.logger?.warn({ problem }, 'Shapefile side file not used'),
  });
  return {
    async open(name) {
      const files = await folder.find(name);
      if (!files) return undefined;
      try {
        return testShapefile(shapefiles.open(files, noCheckpoint));
      } catch (error) {
        if (error instanceof NotFoundError) return undefined;
        throw error;
      }
    },
    list: async () => [...(await folder.names())],
    async close() {
      shapefiles.close();
    },
  };
}

function testShapefile(open: OpenShapefile): TestShapefile {
  return {
    name: open.name,
    shapeType: open.shapeType,
    featureCount: open.featureCount,
    bbox: open.bbox,
    crs: open.crs,
    open,
    async readGeometry(fid, { useCache }) {
      const shape = open.readShape(fid, { useCache, maxRings: MAX_RINGS, checkpoint: noCheckpoint });
      return shape && recordGeometry(shape, open.shapeType);
    },
    async readAttributes(fid) {
      return open.readAttributes(fid);
    },
  };
}

/** A shape as GeoJSON of the type its record has: Point or MultiPoint, LineString or MultiLineString, Polygon or MultiPolygon. */
export function recordGeometry(shape: Shape, shapeType: number): Geometry {
  const geometry = shapeToGeoJson(shape)!;
  const single = (geometry.coordinates as unknown[]).length === 1;
  switch (geometry.type) {
    case 'MultiPoint':
      return baseShapeType(shapeType) === ShapeType.Point ? { type: 'Point', coordinates: geometry.coordinates[0] } : geometry;
    case 'MultiLineString':
      return single ? { type: 'LineString', coordinates: geometry.coordinates[0] } : geometry;
    case 'MultiPolygon':
      return single ? { type: 'Polygon', coordinates: geometry.coordinates[0] } : geometry;
    default:
      return geometry;
  }
}
