/**
 * The files a shapefile is made of, by extension. Its own module because the main thread
 * needs the names (catalogs, listings) and must not load the reading code beside them
 * (ARCHITECTURE.md: records are decoded on the drawing workers only).
 */
export const FILE_KINDS = ['shp', 'shx', 'dbf', 'prj', 'cpg'] as const;

export type FileKind = (typeof FILE_KINDS)[number];
