/**
 * One tile of a layer, on a worker thread (docs/tiles.md): the records whose boxes meet the
 * tile are found through the file's spatial index (job-context/record-index.ts), narrowed by
 * `where=`, counted against the tile's budgets, then drawn as the map operation draws (a PNG:
 * draw-map.ts with no basemap) or encoded as a vector tile (vector-tile/). A tile the layer
 * does not reach is answered without reading a record; a tile past its budgets is drawn from
 * the index alone, every feature reduced to the pixels its box covers (tile-coverage.ts).
 */
import { basename } from 'node:path';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { BadRequestError } from '../errors.ts';
import { contains, overlaps, widened } from '../geometry/bbox.ts';
import type { Shape } from '../geometry/shape.ts';
import type { BBox } from '../geometry/types.ts';
import { matchingFeatures } from '../job-context/matching-features.ts';
import { recordIndex, type RecordIndex } from '../job-context/record-index.ts';
import type { DrawingContext } from '../job-context/context.ts';
import { bboxToMercator, mercatorBoxToFile, mercatorTransform, reprojectShape, type ToMercator } from '../map/reproject.ts';
import { placeView } from '../map/view.ts';
import type { TileFormat } from '../params/tiles.ts';
import type { Basemap } from '../plugin-contract/basemap-plugin.ts';
import { tileBox, tileSpan, type TileAddress } from '../projection/tile-address.ts';
import { pixelsPerMetre, TILE_SIZE } from '../projection/web-mercator.ts';
import { readingEach } from '../shapefile/byte-reader.ts';
import { fieldsNamedIn, pickFields } from '../shapefile/dbf.ts';
import { compileFilter } from '../filter/index.ts';
import { attributeBytesPerHotSpot } from './hot-spot-budget.ts';
import type { OpenShapefile, ShapefileFiles } from '../shapefile/file-set.ts';
import type { DrawStyle } from '../svg/style.ts';
import { CLASS_PROPERTY, encodeVectorTile, EXTENT, type TileFeature } from '../vector-tile/encode.ts';
import type { Handled } from '../workers/serve-jobs.ts';
import { encodeImage } from '../raster/rasterize.ts';
import { arrayBytes, byteBoundedCache } from '../structures/byte-bounded-cache.ts';
import { commonIds } from '../structures/sorted-ids.ts';
import { drawMap, type MapJob } from './draw-map.ts';
import { approximatedWithin } from '../map/approximate-transform.ts';
import { featureStyler, type FeatureStyling } from './feature-styling.ts';
import { coverageTile } from './tile-coverage.ts';

/** A tile's budgets (docs/configuration.md, "Limits"): past either, the tile is drawn from the index alone. */
export interface TileLimits {
  maxTileFeatures: number;
  maxTileVertices: number;
  maxRings: number;
  maxDrawingWork: number;
  maxAnswerBytes: number;
  /** Of the fields a vector tile carries, estimated from the .dbf widths (docs/tiles.md, "Budgets"). */
  maxHotSpotAttributeBytes: number;
}

export interface TileJob {
  files: ShapefileFiles;
  tile: TileAddress;
  format: TileFormat;
  /** Real pixels per CSS pixel of a PNG tile: 1, or 2 for `@2x`. */
  pixelRatio: number;
  style: DrawStyle;
  /** Colours by class or rule; never labels or a legend (docs/tiles.md, "Raster tiles"). */
  styling?: FeatureStyling;
  where?: string;
  /** The .dbf fields a vector tile carries. */
  fields: string[];
  useCache: boolean;
  limits: TileLimits;
}

/** The tile's bytes: drawn, encoded, or the layer's empty tile. */
export interface DrawnTile {
  bytes: Uint8Array;
}

/**
 * Vector tiles reach 64 of their 4,096 units (4 px) past their edges, as the encoder clips
 * (docs/tiles.md, "Vector tiles: geometry"); raster tiles, as far as strokes and symbols reach.
 */
const VECTOR_REACH_PIXELS = 4;

/** Vertices from which a tile's are reprojected by interpolation: a grid costs 300 to 1,400 exact transforms. */
const APPROXIMATE_FROM_VERTICES = 4096;

/** No basemap under a tile: the features on transparency. */
const NO_BASEMAP: Basemap = { below: {}, attribution: '' };

export async function drawTile(job: TileJob, context: DrawingContext): Promise<Handled<DrawnTile>> {
  const { checkpoint, lap } = context;
  const shapefile = context.shapefiles.open(job.files, checkpoint);
  lap('open');
  // What the request names in the file is checked on every tile, those without features too:
  // a map is not half 200 and half 400.
  const fields = fieldsNamedIn(shapefile, 'fields', job.fields);
  if (job.where !== undefined) compileFilter(job.where, shapefile.fields);
  const toMercator = mercatorTransform(shapefile.crs, shapefile.name);
  const fileExtent = bboxToMercator(shapefile.bbox, toMercator);
  const reachPixels = job.format === 'mvt' ? VECTOR_REACH_PIXELS : job.style.lineWidth + job.style.pointRadius + 2;
  const visible = widened(tileBox(job.tile), reachPixels / pixelsPerMetre(job.tile.z));
  if (!overlaps(fileExtent, visible)) return emptyTile(shapefile, job, context);

  const index = recordIndex(shapefile, checkpoint);
  // A tile that holds the whole file needs no test; and far outside a projection's area its
  // inverse can answer nonsense, so the box is mapped into the file's units only when it shows part of the file.
  const inFile = contains(visible, fileExtent) ? undefined : mercatorBoxToFile(visible, shapefile.crs);
  const hits = index.search(inFile, { checkpoint });
  const found = job.where === undefined ? hits : narrowed(shapefile, index, hits.fids, job, checkpoint);
  lap('index');
  if (found.fids.length === 0) return emptyTile(shapefile, job, context);
  if (found.fids.length > job.limits.maxTileFeatures || found.vertices > job.limits.maxTileVertices) {
    const bytes = coverageTile(boxesOf(index, found.fids), { shapefile, toMercator, job, checkpoint, compressionLevel: context.compressionLevel });
    lap('coverage');
    return tileAnswer(bytes);
  }
  // A tile's vertices lie mostly in and around it: reprojected there by interpolation, within half
  // a vector tile's unit, below what its rounding moves a vertex (docs/tiles.md, "Reprojection");
  // exactly when they are too few to pay for the grid, or lon/lat, which Web Mercator takes at once.
  const approximation =
    found.vertices >= APPROXIMATE_FROM_VERTICES && !shapefile.crs.geographic ? { box: around(inFile ?? shapefile.bbox), tolerance: tileSpan(job.tile.z) / EXTENT / 2 } : undefined;
  if (job.format === 'mvt') {
    const projection = approximation ? approximatedWithin(toMercator, approximation.box, approximation.tolerance) : toMercator;
    const bytes = vectorTile(shapefile, found.fids, { ...job, fields }, projection, checkpoint);
    lap('encode');
    return tileAnswer(bytes);
  }
  return tileAnswer(await rasterTile(found.fids, { fileExtent, visible, approximation }, shapefile, job, context));
}

function tileAnswer(bytes: Uint8Array): Handled<DrawnTile> {
  return { result: { bytes }, transfer: [bytes.buffer as ArrayBuffer] };
}

/**
 * The features of `fids` that `where` selects, with their vertices as the index counts them.
 * A tile within its budget reads its candidates' rows alone; one past it (a low zoom, where
 * a tile may hold every feature) takes the whole file's matches, scanned once per file
 * version and filter and kept on this worker, as every low-zoom tile of the layer needs them.
 */
function narrowed(shapefile: OpenShapefile, index: RecordIndex, fids: Uint32Array, job: TileJob, checkpoint: Checkpoint) {
  const where = job.where!;
  let matches: Uint32Array;
  if (fids.length <= job.limits.maxTileFeatures) {
    const listed = Array.from(fids);
    matches = matchingFeatures(shapefile, where, { fids: listed, keep: listed.length, drawableOnly: true }, checkpoint).fids;
  } else {
    const key = `${shapefile.name}\0${shapefile.version}\0${where}`;
    let all = selections.get(key);
    if (!all) {
      all = matchingFeatures(shapefile, where, { keep: Infinity, drawableOnly: true }, checkpoint).fids;
      selections.set(key, all);
    }
    matches = commonIds(fids, all);
  }
  let vertices = 0;
  for (const fid of matches) vertices += index.facts(fid)?.pointCount ?? 0;
  return { fids: matches, vertices };
}

/** Whole-file `where=` selections a worker keeps for low-zoom tiles: 4 bytes a match, the filter's text in the key. */
const selections = byteBoundedCache<Uint32Array>(16 * 1024 * 1024, arrayBytes);

/** The box with as much again on every side: the tile's neighbours, where its features' other vertices mostly lie. */
function around(box: BBox): BBox {
  return widened(box, Math.max(box.xmax - box.xmin, box.ymax - box.ymin));
}

/** The boxes of records the index found, as its record headers give them. */
function* boxesOf(index: RecordIndex, fids: Uint32Array): Generator<BBox> {
  for (const fid of fids) {
    const facts = index.facts(fid);
    if (facts) yield facts.bbox;
  }
}

/**
 * The tile of a layer that does not reach it, or of which `where=` selects nothing there:
 * encoded once per worker for each kind (docs/tiles.md, "Caching"), no record read.
 */
function emptyTile(shapefile: OpenShapefile, job: TileJob, context: DrawingContext): Handled<DrawnTile> {
  const key = job.format === 'mvt' ? `mvt ${shapefile.name}` : `png ${job.pixelRatio}`;
  let bytes = emptyTiles.get(key);
  if (!bytes) {
    const side = TILE_SIZE * job.pixelRatio;
    bytes =
      job.format === 'mvt'
        ? encodeVectorTile(shapefile.name, job.tile, [], context.checkpoint)
        : encodeImage(new Uint8Array(side * side * 4), { width: side, height: side, compressionLevel: context.compressionLevel });
    if (emptyTiles.size < MAX_EMPTY_TILES) emptyTiles.set(key, bytes);
  }
  // A copy moves to the main thread; the kept one stays.
  return tileAnswer(bytes.slice());
}

/** The empty tiles a worker keeps: the PNGs of both ratios, and the vector tiles of this many layers. */
const MAX_EMPTY_TILES = 256;
const emptyTiles = new Map<string, Uint8Array>();

/** The tile drawn as a map of the records in it, over no basemap: the map operation's own drawing step. */
async function rasterTile(
  fids: Uint32Array,
  { fileExtent, visible, approximation }: Pick<MapJob, 'fileExtent' | 'visible' | 'approximation'>,
  shapefile: OpenShapefile,
  job: TileJob,
  context: DrawingContext,
): Promise<Uint8Array> {
  const { tile, limits } = job;
  const box = tileBox(tile);
  const placement = placeView({ x: (box.xmin + box.xmax) / 2, y: (box.ymin + box.ymax) / 2 }, tile.z, TILE_SIZE, TILE_SIZE, job.pixelRatio);
  const drawn = await drawMap(
    {
      files: job.files,
      features: { fids, version: shapefile.version },
      fileExtent,
      transform: placement.transform,
      visible,
      ...(approximation ? { approximation } : {}),
      width: TILE_SIZE,
      height: TILE_SIZE,
      pixelRatio: job.pixelRatio,
      style: job.style,
      ...(job.styling ? { styling: job.styling } : {}),
      basemap: NO_BASEMAP,
      includeHotSpots: false,
      format: 'png',
      itemId: 1,
      featureId: -1,
      answer: { maxBytes: limits.maxAnswerBytes, advice: 'Ask for a tile at a higher zoom.', usedBytes: 0 },
      jpegQuality: 0,
      useCache: job.useCache,
      limits: {
        maxMapFeatures: limits.maxTileFeatures,
        maxMapVertices: limits.maxTileVertices,
        maxRings: limits.maxRings,
        maxHotSpots: 0,
        maxHotSpotAttributeBytes: 0,
        maxLabels: 0,
        maxDrawingWork: limits.maxDrawingWork,
      },
    },
    context,
  );
  return drawn.result.part;
}

/**
 * The tile's features as a vector tile: decoded, in Web Mercator, with the fields asked for
 * (`job.fields`, as the file spells them) and, when styled, their class (CLASS_PROPERTY). The
 * fields are budgeted from the .dbf widths as hot spots' values are, before a row is read: past
 * the budget, a 400 naming it rather than a tile that carries less than it was asked (docs/tiles.md, "Budgets").
 */
function vectorTile(shapefile: OpenShapefile, fids: Uint32Array, job: TileJob, toMercator: ToMercator, checkpoint: Checkpoint): Uint8Array {
  const file = basename(job.files.paths.shp);
  const fieldBytes = attributeBytesPerHotSpot(shapefile.fields, job.fields) * fids.length;
  if (fieldBytes > job.limits.maxHotSpotAttributeBytes) {
    throw new BadRequestError(
      `The fields asked for would take up to ${fieldBytes} bytes for the ${fids.length} features of this tile; at most ` +
        `${job.limits.maxHotSpotAttributeBytes} bytes (limits.maxHotSpotAttributeBytes) can be carried. Ask for fewer fields, or for tiles at a higher zoom.`,
    );
  }
  const fields = job.fields;
  const list = Array.from(fids);
  const shapes = shapefile.readShapes(list, { useCache: job.useCache, maxRings: job.limits.maxRings, checkpoint });
  const classes = job.styling?.colouring ? featureStyler(shapefile, job.styling)(list, checkpoint).classes : undefined;
  const rows = new Map<number, Record<string, unknown>>();
  if (fields.length > 0) readingEach(list, (fid) => void rows.set(fid, pickFields(shapefile.readAttributes(fid), fields)));
  const features: TileFeature[] = [];
  shapes.forEach((shape: Shape | null, i) => {
    if (!shape) return;
    const fid = list[i];
    const properties = { ...(rows.get(fid) ?? {}), ...(classes?.[i] === undefined ? {} : { [CLASS_PROPERTY]: classes[i] }) };
    features.push({ id: fid, shape: reprojectShape(shape, toMercator, fid, file, checkpoint), properties: properties as TileFeature['properties'] });
  });
  return encodeVectorTile(shapefile.name, job.tile, features, checkpoint);
}
