/**
 * Our reading of shapefiles written by other writers than ours (ogr2ogr, pyshp, GDAL in
 * update mode, byte edits), compared with what GDAL 3.6 makes of them:
 * test/fixtures/gdal/reference.json, written by scripts/gdal-reference/corpus.py. Feature
 * counts, child numbering, the rings or coordinates of every child, bounding boxes,
 * attributes, and the records GDAL refuses. Where docs/decisions.md departs from GDAL on purpose,
 * the departure is listed below with its reason, and the test names it.
 */
import { copyFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BadRequestError, DamagedShapefileError, NotFoundError } from '../../src/errors.ts';
import { shapesBBox, vertexCount, type Shape } from '../../src/geometry/shape.ts';
import type { AttributeValue } from '../../src/shapefile/dbf.ts';
import type { OpenShapefile } from '../../src/shapefile/file-set.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { createCatalog } from '../support/catalog.ts';
import {
  childrenOf,
  failures,
  GDAL_FIXTURES,
  indexIsToBlame,
  loadGdalReference,
  maskIoU,
  type GdalReading,
  type ReferenceFeature,
} from '../support/gdal-reference.ts';
import { decodePng } from '../support/png.ts';
import { imagesUrl, startServer, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

const reference = loadGdalReference();
const catalog = createCatalog({ dataDir: GDAL_FIXTURES, cacheBytes: 0 });
afterAll(async () => {
  await catalog.close();
  removeTempDirs();
});

/** What our reading of a record must give. */
type Expected =
  | { kind: 'geometry'; like: ReferenceFeature }
  | { kind: 'no geometry' }
  | { kind: 'damaged' }
  | { kind: 'deleted' }
  | { kind: 'not drawable' };

interface Departure {
  /** The features it concerns; every feature when absent. */
  fids?: number[];
  ours: (fid: number) => Expected;
  why: string;
}

const damaged = () => ({ kind: 'damaged' }) as const;

/** Where our geometry departs from GDAL's on purpose. */
const GEOMETRY_DEPARTURES: Record<string, Departure[]> = {
  nonfinite: [
    { fids: [1, 2], ours: damaged, why: 'GDAL reads NaN and infinite coordinates; docs/decisions.md makes them damage' },
  ],
  mixed_types: [
    {
      fids: [4],
      ours: damaged,
      why: 'GDAL reads a Polygon record in a PolyLine file as a polygon in a line layer; a record of another base type is damage here',
    },
    { fids: [5], ours: damaged, why: 'GDAL shows a record of unknown shape type 99 as no geometry, silently; it is damage here' },
  ],
  mixed_2d_in_z: [
    {
      fids: [1, 2],
      ours: damaged,
      why:
        'GDAL reads PolyLine and PolyLineM records in a PolyLineZ file; here a record without Z in a Z file is damage, ' +
        'since the vertex budget is computed from the file type before any record is read',
    },
  ],
  shx_offset_zero: [
    {
      fids: [1],
      ours: damaged,
      why: 'GDAL reads the file header at byte 0 as the record and finds a null shape; a .shx entry inside the header is damage here',
    },
  ],
  multipatch: [{ ours: () => ({ kind: 'not drawable' }), why: 'GDAL reads MultiPatch as a TIN; shapeshot cannot draw MultiPatch (400)' }],
  dbf_short: [
    {
      fids: [2, 3],
      ours: (fid) => ({ kind: 'geometry', like: featureOf(reference.files.lines4.gdal, fid) }),
      why:
        'GDAL gives no feature for a record past the last .dbf row; our geometry stays readable (a damaged .dbf only ' +
        'fails attribute reads) and its attributes are damage',
    },
  ],
};

/** Where our attributes depart from GDAL's on purpose: the values we give instead. */
const ATTRIBUTE_DEPARTURES: Record<string, { values: Record<string, AttributeValue>[]; why: string }> = {
  enc_ansi1252: {
    values: [{ NAME: 'café crème' }, { NAME: '€ 5' }, { NAME: 'Straße' }],
    why: 'GDAL 3.6 does not know the .cpg label "ANSI 1252" and passes the bytes on undecoded; we read it as windows-1252',
  },
  enc_ldid87_euro: {
    values: [{ NAME: 'café crème' }, { NAME: '€ 5' }, { NAME: '“quoted”' }],
    why:
      'GDAL decodes LDID 87 as ISO-8859-1, which has control codes at 0x80-0x9F; we decode it as windows-1252, which ' +
      'reads the same elsewhere and has the characters Windows tools put there (src/shapefile/encoding.ts)',
  },
  attrs_pyshp: {
    values: [{ FLAG: true }, { FLAG: false }, { FLAG: null }],
    why: 'GDAL 3.6 gives a logical (L) field as its letter, "T" or "F"; we give booleans',
  },
};

/** Files we read as a whole differently from GDAL, on purpose. */
const NO_SHX_WHY = 'GDAL 3.6 refuses a shapefile without .shx unless SHAPE_RESTORE_SHX=YES; docs/decisions.md rebuilds it by walking the .shp';
const BASE_MISMATCH_WHY =
  'GDAL opens a PolyLine .shp with a Polygon .shx as a Polygon layer holding lines; headers of different base types are damage here';

function featureOf(reading: GdalReading, fid: number): ReferenceFeature {
  return reading.features![fid];
}

/** GDAL's reading we compare with: with the .shx rebuilt where docs/decisions.md rebuilds it. */
function readingOf(file: string): GdalReading {
  const entry = reference.files[file];
  return entry.restored ?? entry.gdal;
}

function expectedFromGdal(feature: ReferenceFeature): Expected {
  if (!feature.feature) return { kind: 'deleted' };
  if (failures(feature).length > 0) return { kind: 'damaged' };
  const { geometry } = feature;
  return !geometry || 'empty' in geometry ? { kind: 'no geometry' } : { kind: 'geometry', like: feature };
}

function geometryExpectation(file: string, feature: ReferenceFeature): { expected: Expected; why?: string } {
  const departure = GEOMETRY_DEPARTURES[file]?.find(({ fids }) => fids === undefined || fids.includes(feature.fid));
  return departure ? { expected: departure.ours(feature.fid), why: departure.why } : { expected: expectedFromGdal(feature) };
}

interface FeatureCase {
  file: string;
  fid: number;
  feature: ReferenceFeature;
  expected: Expected;
  title: string;
}

const openedFiles = Object.keys(reference.files).filter((file) => readingOf(file).opens && file !== 'header_base_mismatch');
const featureCases: FeatureCase[] = openedFiles.flatMap((file) =>
  readingOf(file).features!.map((feature) => {
    const { expected, why } = geometryExpectation(file, feature);
    const title = `${file} #${feature.fid}: ${expected.kind}${why ? ` (departs from GDAL: ${why})` : ''}`;
    return { file, fid: feature.fid, feature, expected, title };
  }),
);

const noCheckpoint = () => undefined;

async function openFixture(file: string): Promise<OpenShapefile> {
  const shapefile = await catalog.open(file);
  if (!shapefile) throw new Error(`The corpus has no shapefile '${file}'.`);
  return shapefile.open;
}

function readShape(open: OpenShapefile, fid: number): Shape | null {
  return open.readShape(fid, { useCache: false, maxRings: 100_000, checkpoint: noCheckpoint });
}

function errorOf(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return error;
  }
  throw new Error('The read did not fail.');
}

function bboxArray(shape: Shape): number[] {
  const { xmin, ymin, xmax, ymax } = shapesBBox([shape])!;
  return [xmin, ymin, xmax, ymax];
}

describe(`files as ${reference.gdal} opens them`, () => {
  it.each(openedFiles)('%s: feature count and extent', async (file) => {
    const open = await openFixture(file);
    const reading = readingOf(file);
    expect(open.featureCount).toBe(reading.featureCount);
    const { xmin, ymin, xmax, ymax } = open.bbox;
    expect([xmin, ymin, xmax, ymax]).toEqual(reading.extent);
  });

  const refused = Object.keys(reference.files).filter((file) => !reference.files[file].gdal.opens && !reference.files[file].restored);
  it.each(refused)('%s: GDAL cannot open it, and it is damage naming the file', async (file) => {
    const error = await catalog.open(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DamagedShapefileError);
    expect((error as DamagedShapefileError).file).toMatch(new RegExp(`^${file}\\.sh[px]$`));
  });

  it(`no_shx (departs from GDAL: ${NO_SHX_WHY})`, async () => {
    expect(reference.files.no_shx.gdal.opens).toBe(false);
    expect((await openFixture('no_shx')).featureCount).toBe(reference.files.no_shx.restored!.featureCount);
  });

  it(`header_base_mismatch is damage naming its .shx (departs from GDAL: ${BASE_MISMATCH_WHY})`, async () => {
    expect(reference.files.header_base_mismatch.gdal.opens).toBe(true);
    const error = await catalog.open('header_base_mismatch').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DamagedShapefileError);
    expect((error as DamagedShapefileError).message).toMatch(/'header_base_mismatch\.shx' .*shape type Polygon, the \.shp's says PolyLine/);
  });
});

/** Our reading of one record against what GDAL (or a departure) says it must be. */
async function checkRecord({ file, fid, expected }: FeatureCase): Promise<void> {
  const open = await openFixture(file);
  switch (expected.kind) {
    case 'geometry': {
      const shape = readShape(open, fid);
      const geometry = expected.like.geometry as { children: unknown[]; bbox: number[] };
      expect(shape).not.toBeNull();
      expect(childrenOf(shape!)).toEqual(geometry.children);
      expect(bboxArray(shape!)).toEqual(geometry.bbox);
      expect(open.vertexBounds([fid])[0]).toBeGreaterThanOrEqual(vertexCount(shape!));
      break;
    }
    case 'no geometry':
      expect(readShape(open, fid)).toBeNull();
      break;
    case 'deleted':
      expect(errorOf(() => readShape(open, fid))).toBeInstanceOf(NotFoundError);
      break;
    case 'not drawable':
      expect(errorOf(() => readShape(open, fid))).toBeInstanceOf(BadRequestError);
      break;
    case 'damaged': {
      const error = errorOf(() => readShape(open, fid));
      expect(error).toBeInstanceOf(DamagedShapefileError);
      const blamed = indexIsToBlame(join(GDAL_FIXTURES, file), fid) ? 'shx' : 'shp';
      expect((error as DamagedShapefileError).file).toBe(`${file}.${blamed}`);
      expect((error as Error).message).toContain(`record ${fid}`);
      break;
    }
  }
}

describe(`records as ${reference.gdal} reads them`, () => {
  // Loops rather than it.each, which cuts long titles short: the titles name the departures.
  for (const featureCase of featureCases) it(featureCase.title, () => checkRecord(featureCase));
});

describe(`attributes as ${reference.gdal} gives them`, () => {
  const pastLastRow = (feature: ReferenceFeature) => failures(feature).some((message) => message.includes('out of available range'));
  const cases = featureCases.filter(({ feature }) => feature.feature || pastLastRow(feature));

  const compareAttributes = async ({ file, fid, feature }: FeatureCase) => {
    const open = await openFixture(file);
    if (!feature.feature) {
      // GDAL gives no feature past the last .dbf row: see GEOMETRY_DEPARTURES.dbf_short.
      const error = errorOf(() => open.readAttributes(fid));
      expect(error).toBeInstanceOf(DamagedShapefileError);
      expect((error as DamagedShapefileError).file).toBe(`${file}.dbf`);
      return;
    }
    const departure = ATTRIBUTE_DEPARTURES[file];
    expect(open.readAttributes(fid)).toEqual({ ...feature.attributes, ...departure?.values[fid] });
  };
  const titled = (c: FeatureCase) => {
    const why = ATTRIBUTE_DEPARTURES[c.file]?.why;
    return { ...c, title: `${c.file} #${c.fid}${why ? ` (departs from GDAL: ${why})` : ''}` };
  };
  for (const c of cases.map(titled)) it(c.title, () => compareAttributes(c));

  const departures = Object.entries(ATTRIBUTE_DEPARTURES).map(([file, departure]) => ({ file, ...departure }));
  for (const { file, values, why } of departures) {
    it(`${file}: GDAL gives other values than ours (${why})`, () => {
      const features = readingOf(file).features!;
      const differs = (fid: number) => Object.entries(values[fid]).some(([field, value]) => features[fid].attributes![field] !== value);
      expect(features.some(({ fid }) => differs(fid))).toBe(true);
    });
  }

  it('a deleted row is no feature, as GDAL says', async () => {
    const open = await openFixture('gdal_deleted');
    const gdalSays = failures(featureOf(readingOf('gdal_deleted'), 1));
    expect(gdalSays).toEqual(['Attempt to read shape with feature id (1), but it is marked deleted.']);
    expect(errorOf(() => open.readAttributes(1))).toBeInstanceOf(NotFoundError);
  });
});

describe('walks over every record, as the map draws them', () => {
  /** Files GDAL reads without an error for any feature but deleted ones, and that we read as GDAL does. */
  const walkable = openedFiles.filter(
    (file) =>
      !GEOMETRY_DEPARTURES[file] &&
      readingOf(file).features!.every((feature) =>
        feature.feature ? failures(feature).length === 0 : /marked deleted/.test(failures(feature)[0]),
      ),
  );

  it('include the GDAL-edited files, whose records are out of file order or deleted', () => {
    expect(walkable).toEqual(expect.arrayContaining(['gdal_rewritten', 'gdal_deleted']));
  });

  it.each(walkable)('%s: the features GDAL lists, with their boxes', async (file) => {
    const open = await openFixture(file);
    const reading = readingOf(file);
    const walked = [...open.walk(noCheckpoint)];
    expect(walked.map((record) => record.fid)).toEqual(reading.listed);
    for (const record of walked) {
      const geometry = featureOf(reading, record.fid).geometry;
      if (!geometry || 'empty' in geometry) continue;
      const [xmin, ymin, xmax, ymax] = geometry.bbox;
      expect(record.bbox).toEqual({ xmin, ymin, xmax, ymax });
    }
  });
});

describe('Z records without their M block', () => {
  const zFiles = ['ogr_pointz', 'ogr_multipointz', 'ogr_linez', 'ogr_polygonz'];

  /** Bytes a Z record of `points` vertices holds with its Z block and no M block. */
  function zWithoutMBytes(shapeType: number, content: Buffer): number {
    if (shapeType === ShapeType.PointZ) return 28;
    if (shapeType === ShapeType.MultiPointZ) {
      const points = content.readInt32LE(36);
      return 40 + 24 * points + 16;
    }
    const parts = content.readInt32LE(36);
    const points = content.readInt32LE(40);
    return 44 + 4 * parts + 24 * points + 16;
  }

  it.each(zFiles)('%s, as ogr2ogr writes it from x, y, z, holds no M block', (file) => {
    const shp = readFileSync(join(GDAL_FIXTURES, `${file}.shp`));
    const shx = readFileSync(join(GDAL_FIXTURES, `${file}.shx`));
    const offset = shx.readInt32BE(100) * 2;
    const content = shp.subarray(offset + 8, offset + 8 + shx.readInt32BE(104) * 2);
    expect(content.length).toBe(zWithoutMBytes(content.readInt32LE(0), content));
  });
});

describe('images of the wrongly wound polygons match GDAL geometry, rasterized', () => {
  const { width, height, buffer } = reference.image;
  const masks = Object.entries(reference.files.wound_wrong.masks!).map(([fid, mask]) => ({ fid, ...mask }));
  let server: TestServer;

  beforeAll(async () => {
    const dir = makeTempDir();
    for (const extension of ['shp', 'shx', 'dbf']) {
      copyFileSync(join(GDAL_FIXTURES, `wound_wrong.${extension}`), join(dir, `wound_wrong.${extension}`));
    }
    server = await startServer({ dataDir: dir });
  });
  afterAll(() => server?.close());

  it.each(masks)('child $fid: mask IoU at least 0.95', async ({ fid, file }) => {
    const query = { file: 'wound_wrong', fid, size: `${height},${width}`, buffer, format: 'png', lineWidth: 0, fillColor: '000000' };
    const response = await fetch(imagesUrl(server, query));
    expect(response.status).toBe(200);
    const ours = decodePng(new Uint8Array(await response.arrayBuffer()));
    const mask = decodePng(readFileSync(join(GDAL_FIXTURES, file)));
    expect(maskIoU(ours, mask)).toBeGreaterThanOrEqual(0.95);
  });
});
