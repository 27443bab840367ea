import type { BBox, Geometry } from '../geometry/types.ts';

/** Shape types of the ESRI specification; Z and M variants are read as their 2-D types. */
export const ShapeType = {
  Null: 0,
  Point: 1,
  PolyLine: 3,
  Polygon: 5,
  MultiPoint: 8,
  PointZ: 11,
  PolyLineZ: 13,
  PolygonZ: 15,
  MultiPointZ: 18,
  PointM: 21,
  PolyLineM: 23,
  PolygonM: 25,
  MultiPointM: 28,
  MultiPatch: 31,
} as const;

/** The coordinate reference system of a shapefile, from its `.prj`. */
export interface Crs {
  /** true for lon/lat data (a geographic `.prj`, or no `.prj` and a bbox within ±180/±90). */
  geographic: boolean;
  /** proj4 definition; undefined when there is no usable `.prj`. */
  proj4?: string;
  /** Human-readable name from the `.prj` (for messages). */
  name?: string;
}

/** One shapefile as the catalog resolved it: header facts plus random-access readers. */
export interface Shapefile {
  /** The name as the catalog spells it (the `.shp` file name without extension). */
  readonly name: string;
  readonly shapeType: number;
  /** Number of records (from the `.shx`, or from scanning the `.shp` when it is missing). */
  readonly featureCount: number;
  /** Bounding box from the `.shp` header. */
  readonly bbox: BBox;
  readonly crs: Crs;
  /**
   * The geometry of feature `fid` (0-based record position), null for a Null shape.
   * Reads only that record. Throws NotFoundError past the last record and
   * DamagedShapefileError for a damaged record.
   */
  readGeometry(fid: number, options: { useCache: boolean }): Promise<Geometry | null>;
  /** The `.dbf` row of feature `fid`, decoded with the file's encoding. */
  readAttributes(fid: number): Promise<Record<string, string | number | boolean | null>>;
  /**
   * Every record in file order, read sequentially in large chunks (for all-feature work on
   * big files). Bypasses the feature cache: a full walk would only evict what others use.
   * Throws DamagedShapefileError when the chain of records breaks.
   */
  scan(): AsyncIterable<ScannedRecord>;
}

/** A record met by Shapefile.scan(): facts from its header, its geometry on demand. */
export interface ScannedRecord {
  fid: number;
  /** The record's bounding box in the file's units; undefined for a Null shape. */
  bbox: BBox | undefined;
  pointCount: number;
  /** Decodes the record (null for a Null shape or one without points). */
  geometry(): Promise<Geometry | null>;
}

/** The data folder: resolves request names to shapefiles. */
export interface ShapefileCatalog {
  /** Case-insensitive lookup; undefined when no such shapefile is in the data folder. */
  open(name: string): Promise<Shapefile | undefined>;
  /** Names of every shapefile in the folder, as spelled on disk. */
  list(): Promise<string[]>;
  close(): Promise<void>;
}
