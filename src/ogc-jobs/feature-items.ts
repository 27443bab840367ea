/**
 * OGC API – Features on a drawing worker: what a collection is (counts, extents, fields),
 * a page of its items, and one item, as GeoJSON text in WGS 84. Records are read by id;
 * an answer's vertices are bounded from the index before any is decoded, and its bytes
 * (limits.maxAnswerBytes) as they are written, before they are allocated.
 */
import { basename } from 'node:path';
import { answerTooLarge } from '../envelope/answer-limit.ts';
import { BoundedBytes } from '../envelope/bounded-bytes.ts';
import { BadRequestError, echo, ServiceError } from '../errors.ts';
import type { BBox } from '../geometry/types.ts';
import { toWgs84 } from '../shapefile/crs.ts';
import { fieldNamesOf, pickFields, type AttributeField, type AttributeValue } from '../shapefile/dbf.ts';
import type { OpenShapefile, ShapefileFiles } from '../shapefile/file-set.ts';
import { shapeTypeName } from '../shapefile/shp-header.ts';
import { baseShapeType } from '../shapefile/shp-record.ts';
import { ShapeType } from '../shapefile/types.ts';
import type { Handled } from '../workers/serve-jobs.ts';
import type { DrawingContext } from '../job-context/context.ts';
import { checkVertexBound, perParent } from '../job-context/listed-features.ts';
import { alsoWanted, readingEach } from '../shapefile/byte-reader.ts';
import type { Shape } from '../geometry/shape.ts';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { featureSelection, listedFeatures, matchCount, pageOf, type SelectionQuery } from './feature-selection.ts';
import { featureJson, featureTypeJson, type GeometrySettings } from './geojson-feature.ts';
import type { FeatureLimits } from './feature-limits.ts';
import { boxToLonLat } from './lon-lat-box.ts';

export interface CollectionsJob {
  files: ShapefileFiles[];
}

/** What a shapefile is, as a collection. */
export interface CollectionFacts {
  name: string;
  /** The ESRI shape type ('Polygon', 'PointZ', …). */
  shapeType: string;
  /** The GeoJSON types its features' geometries take. */
  geometryTypes: string[];
  /** Records less those whose `.dbf` row is deleted. */
  featureCount: number;
  /** The header's box, in the file's own units. */
  bbox: BBox;
  /** The box around it in WGS 84 lon/lat; absent when the CRS is unknown. */
  lonLatBBox?: BBox;
  /** The `.prj`'s name for the CRS. */
  crsName?: string;
  fields: readonly AttributeField[];
}

/** A collection described, or why it could not be (a file gone or damaged: the status it answers with). */
export type DescribedCollection = { facts: CollectionFacts } | { name: string; status: ServiceError['status']; problem: string };

export interface DescribedCollections {
  collections: DescribedCollection[];
}

export interface ItemsJob {
  files: ShapefileFiles;
  query: SelectionQuery;
  offset: number;
  limit: number;
  /** Field names (any case) the features carry; undefined: every field. */
  properties?: string[];
  /** 'type': each geometry as its type alone, for the HTML pages, which show no more and are parsed on the event loop. */
  geometry?: GeometryDetail;
  limits: FeatureLimits;
}

export type GeometryDetail = 'whole' | 'type';

export interface ItemsPage {
  numberMatched: number;
  numberReturned: number;
  /** The features as the UTF-8 text of a JSON array. */
  features: Uint8Array;
}

export interface ItemJob {
  files: ShapefileFiles;
  fid: number;
  properties?: string[];
  geometry?: GeometryDetail;
  limits: FeatureLimits;
}

export interface ItemFeature {
  /** The Feature as UTF-8 JSON text. */
  feature: Uint8Array;
}

const GEOMETRY_TYPES: Record<number, string[]> = {
  [ShapeType.Point]: ['Point'],
  [ShapeType.MultiPoint]: ['MultiPoint'],
  [ShapeType.PolyLine]: ['LineString', 'MultiLineString'],
  [ShapeType.Polygon]: ['Polygon', 'MultiPolygon'],
};

/**
 * Each file described in turn; a file that is gone or damaged is reported, and the others still
 * described. From a remote source, what every file misses is fetched together (readingEach):
 * a page of 1,000 collections runs again a few times, not once or twice per file.
 */
export function describeCollections(job: CollectionsJob, context: DrawingContext): Handled<DescribedCollections> {
  const collections = readingEach(job.files, (files): DescribedCollection => {
    try {
      return { facts: collectionFacts(files, context) };
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      return { name: files.name, status: error.status, problem: error.message };
    }
  });
  return { result: { collections } };
}

function collectionFacts(files: ShapefileFiles, context: DrawingContext): CollectionFacts {
  const shapefile = context.shapefiles.open(files, context.checkpoint);
  const lonLatBBox = boxToLonLat(shapefile.bbox, shapefile.crs);
  return {
    name: shapefile.name,
    shapeType: shapeTypeName(shapefile.shapeType),
    geometryTypes: GEOMETRY_TYPES[baseShapeType(shapefile.shapeType)] ?? [],
    featureCount: matchCount(listedFeatures(shapefile, context)),
    bbox: shapefile.bbox,
    ...(lonLatBBox ? { lonLatBBox } : {}),
    ...(shapefile.crs.name ? { crsName: shapefile.crs.name } : {}),
    fields: shapefile.fields,
  };
}

/** The page of the selected features from `offset` on, at most `limit`, with how many match in all. */
export function featureItems(job: ItemsJob, context: DrawingContext): Handled<ItemsPage> {
  const { checkpoint, lap } = context;
  const { shapefile, settings, fields } = openForFeatures(job, context);
  const selection = featureSelection(shapefile, job.query, { settings, maxRings: job.limits.maxRings, maxVertices: job.limits.maxPageVertices }, context);
  const fids = pageOf(selection, job.offset, job.limit);
  lap('select');
  checkVertices(shapefile, fids, job.limits.maxPageVertices);
  const read = { useCache: false, maxRings: job.limits.maxRings, checkpoint };
  // Vertices are bounded above, but not the text of wide rows: counted (as UTF-8) as the page
  // grows, so that a page past the answer's limit stops there instead of being held whole,
  // and its bytes are allocated once, at their exact size, only when they fit.
  const page = new BoundedBytes(job.limits.maxAnswerBytes, (bytes) => answerTooLarge(bytes, { maxBytes: job.limits.maxAnswerBytes, advice: PAGE_ADVICE }));
  // Every row and record of the page at once: from a remote source, all of them in one round of
  // merged reads, not a round trip a feature (issue 29: a page of 1,000 took 10 s over nginx).
  // A page is a scan: it bypasses the feature cache, which would only evict what images use.
  const readShapes = () => perParent(fids.map((fid) => ({ text: String(fid), parent: fid })), (parents) => shapefile.readShapes(parents, read));
  let rows: Record<string, AttributeValue>[];
  try {
    rows = readingEach(fids, (fid) => shapefile.readAttributes(fid));
  } catch (error) {
    throw alsoWanted(error, readShapes);
  }
  const shapes = readShapes();
  lap('read');
  page.text('[');
  fids.forEach((fid, index) => {
    checkpoint();
    if (index > 0) page.text(',');
    page.text(featureText({ fid, shape: shapes.get(fid)!, properties: pickedFields(rows[index], fields) }, settings, checkpoint, job.geometry));
  });
  page.text(']');
  const features = page.finish();
  lap('geojson');
  return { result: { numberMatched: matchCount(selection), numberReturned: fids.length, features }, transfer: [features.buffer] };
}

/** Feature `fid`; 404 when there is none, or its `.dbf` row is deleted. */
export function featureItem(job: ItemJob, context: DrawingContext): Handled<ItemFeature> {
  const { checkpoint, lap } = context;
  const { shapefile, settings, fields } = openForFeatures(job, context);
  // Attributes first: a deleted feature is a 404, whatever its size.
  const row = shapefile.readAttributes(job.fid);
  checkVertices(shapefile, [job.fid], job.limits.maxPageVertices);
  // One feature may hold as many vertices as a page (tens of MB of text): the same byte limit.
  const item = new BoundedBytes(job.limits.maxAnswerBytes, (bytes) => answerTooLarge(bytes, { maxBytes: job.limits.maxAnswerBytes, advice: ITEM_ADVICE }));
  const shape = shapefile.readShape(job.fid, { useCache: true, maxRings: job.limits.maxRings, checkpoint });
  item.text(featureText({ fid: job.fid, shape, properties: pickedFields(row, fields) }, settings, checkpoint, job.geometry));
  const feature = item.finish();
  lap('geojson');
  return { result: { feature }, transfer: [feature.buffer] };
}

const PAGE_ADVICE = "Ask for fewer features with 'limit', or fewer fields with 'properties'.";
const ITEM_ADVICE = "Ask for fewer fields with 'properties'; a geometry larger on its own needs a larger limits.maxAnswerBytes.";

/** One feature's GeoJSON text. */
function featureText(source: { fid: number; shape: Shape | null; properties: Record<string, AttributeValue> }, settings: GeometrySettings, checkpoint: Checkpoint, detail: GeometryDetail = 'whole'): string {
  return detail === 'type' ? featureTypeJson(source, settings) : featureJson(source, settings, checkpoint);
}

/** The chosen fields of a `.dbf` row (all without a choice). */
function pickedFields(row: Record<string, AttributeValue>, fields: readonly string[] | undefined): Record<string, AttributeValue> {
  return fields ? pickFields(row, fields) : row;
}

function geometrySettings(shapefile: OpenShapefile, files: ShapefileFiles): GeometrySettings {
  const toLonLat = toWgs84(shapefile.crs);
  if (!toLonLat) {
    throw new BadRequestError(
      `Collection '${shapefile.name}' cannot be given in WGS 84: its coordinate reference system is unknown ` +
        '(it has no usable .prj and its coordinates are not longitude/latitude).',
    );
  }
  return { shapeType: shapefile.shapeType, toLonLat, shpFile: basename(files.paths.shp) };
}

/** The shapefile a page or a feature comes from, how its geometry becomes GeoJSON, and the properties asked for. */
function openForFeatures(job: { files: ShapefileFiles; properties?: string[] }, context: DrawingContext) {
  const shapefile = context.shapefiles.open(job.files, context.checkpoint);
  const settings = geometrySettings(shapefile, job.files);
  const fields = chosenFields(shapefile, job.properties);
  context.lap('open');
  return { shapefile, settings, fields };
}

/** The `.dbf` spellings of the requested properties (matched case-insensitively); 400 naming one that is no field. */
function chosenFields(shapefile: OpenShapefile, requested: readonly string[] | undefined): string[] | undefined {
  return (
    requested &&
    fieldNamesOf(shapefile.fields, requested, (name, known) =>
      new BadRequestError(`Parameter 'properties': collection '${shapefile.name}' has no property '${echo(name)}' (its properties: ${known}).`),
    )
  );
}

/** Refuses, before any is decoded, features that may hold more vertices than `limit` (their index lengths say). */
function checkVertices(shapefile: OpenShapefile, fids: readonly number[], limit: number): void {
  const refs = fids.map((fid) => ({ text: String(fid), parent: fid }));
  checkVertexBound(shapefile, refs, limit, (vertices) =>
    new BadRequestError(
      `The ${fids.length === 1 ? `feature ${fids[0]} holds` : `${fids.length} features hold`} up to ${vertices} vertices; ` +
        `at most ${limit} (ogc.maxPageVertices) fit in one answer.${fids.length > 1 ? " Ask for fewer with 'limit'." : ''}`,
    ),
  );
}
