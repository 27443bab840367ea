/**
 * The tiles apart from HTTP (docs/tiles.md): a tile from its parsed request, and the facts the
 * TileJSON and style documents are written from. A tile's classes are those of the whole
 * layer (or its `where=` selection), made and kept as every styled picture's are
 * (operations/thematic.ts), never those of the features one tile holds; the tile itself is
 * one job on a drawing worker (drawing/draw-tile.ts).
 */
import type { Config } from '../config/schema.ts';
import { ServiceError } from '../errors.ts';
import type { DrawnTile } from '../drawing/draw-tile.ts';
import type { JobPool } from '../jobs/job-pool.ts';
import type { CollectionFacts } from '../ogc-jobs/feature-items.ts';
import type { TileFormat, TileQuery } from '../params/tiles.ts';
import type { TileAddress } from '../projection/tile-address.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import type { RequestTiming } from '../stages.ts';
import type { Legend } from '../thematic/legend.ts';
import { featureStyling, type ThematicServices } from './thematic.ts';

export interface TileServices extends ThematicServices {
  jobs: JobPool;
  config: {
    limits: Pick<Config['limits'], 'maxTileFeatures' | 'maxTileVertices' | 'maxRings' | 'maxDrawingWork' | 'maxAnswerBytes' | 'maxHotSpotAttributeBytes' | 'maxCategories'>;
  };
}

export interface TileRequestOf {
  query: TileQuery;
  files: ShapefileFiles;
  /** The shapefile's version as the caching step read it: what its classes are kept under. */
  version?: object;
  signal: AbortSignal;
  timing?: RequestTiming;
}

/** The tile's bytes: drawn, encoded, or the layer's empty tile. */
export async function createTile(tile: TileAddress & { format: TileFormat; pixelRatio: number }, of: TileRequestOf, services: TileServices): Promise<DrawnTile> {
  const { query, files, signal, timing } = of;
  const styling = await tileStyling(of, services);
  const { maxTileFeatures, maxTileVertices, maxRings, maxDrawingWork, maxAnswerBytes, maxHotSpotAttributeBytes } = services.config.limits;
  const { stages, ...drawn } = await services.jobs.run(
    'tile',
    {
      files,
      tile: { z: tile.z, x: tile.x, y: tile.y },
      format: tile.format,
      pixelRatio: tile.pixelRatio,
      style: query.style,
      ...(styling ? { styling: styling.styling } : {}),
      ...(query.where === undefined ? {} : { where: query.where }),
      fields: query.fields,
      useCache: !query.noCache,
      limits: { maxTileFeatures, maxTileVertices, maxRings, maxDrawingWork, maxAnswerBytes, maxHotSpotAttributeBytes },
    },
    signal,
  );
  timing?.job(stages);
  return drawn;
}

/**
 * The request's colouring with the layer's classes, and their legend; undefined for one
 * style. Labels and a legend are never drawn into a tile (docs/tiles.md, "Raster tiles").
 */
export async function tileStyling(of: TileRequestOf, services: TileServices) {
  const { colouring, outline } = of.query.thematic;
  if (!colouring) return undefined;
  const thematic = { colouring, ...(outline ? { outline } : {}) };
  const { files, version, signal, timing } = of;
  return featureStyling(thematic, 'English', { files, where: of.query.where, version, noCache: of.query.noCache, services, signal, timing }) as Promise<{
    styling: NonNullable<Awaited<ReturnType<typeof featureStyling>>>['styling'];
    legend: Legend;
  }>;
}

/** What the TileJSON and style documents say of the file: its box, shape and fields. */
export async function layerFacts(files: ShapefileFiles, services: TileServices, signal: AbortSignal, timing?: RequestTiming): Promise<CollectionFacts> {
  const { stages, collections } = await services.jobs.run('collections', { files: [files] }, signal);
  timing?.job(stages);
  const [described] = collections;
  if ('problem' in described) throw new ServiceError(described.status, described.problem);
  return described.facts;
}
