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

/** Where a record lies in the `.shp`, as the index (or a walk of the `.shp`) says. */
export interface RecordLocation {
  /** Byte offset of the record header in the `.shp`. */
  offset: number;
  /** Content length in bytes, not counting the 8-byte record header. */
  contentBytes: number;
}
