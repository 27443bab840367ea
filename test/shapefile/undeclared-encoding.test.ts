/**
 * A `.dbf` that declares no encoding (no `.cpg`, language driver id 0), written by GDAL's
 * ogr2ogr in UTF-8 and in windows-1252: each value reads as UTF-8 when its bytes are valid
 * UTF-8, else as windows-1252 (docs/configuration.md, "Text encoding"). GDAL is the reference:
 * it passes such bytes on undecoded, so `ogrinfo`'s output, read in the encoding the file was
 * written in, is the text. The same text is what `where=` compares and what /ogc shows and
 * filters.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import iconv from 'iconv-lite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decoderFor, UNDECLARED_ENCODING } from '../../src/shapefile/encoding.ts';
import { createCatalog, type TestCatalog } from '../support/catalog.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { editFile } from './helpers.ts';

/** Text windows-1252 holds: accents, ß, and the characters it puts at 0x80–0x9F (€, “”). */
const WESTERN = ['Montréal', 'Zürich', 'Straße', '€ 5 “q”', 'plain'];
/** Text only UTF-8 holds among the two. */
const OTHER_SCRIPTS = ['Москва', '東京'];

/** The field whose name is not ASCII either: header text is decoded by the same rule. */
const REGION = 'Région';

const FILES = {
  /** `-lco ENCODING=UTF-8`, its .cpg deleted. */
  utf8: { lco: 'UTF-8', names: [...WESTERN, ...OTHER_SCRIPTS], gdalOutput: 'utf-8' },
  /** `-lco ENCODING=CP1252`, its .cpg deleted. */
  cp1252: { lco: 'CP1252', names: WESTERN, gdalOutput: 'windows-1252' },
} as const;
type FileName = keyof typeof FILES;

let dataDir: string;
let catalog: TestCatalog;

beforeAll(() => {
  dataDir = makeTempDir('undeclared-encoding-');
  for (const [name, { lco, names }] of Object.entries(FILES)) {
    const csv = join(dataDir, `${name}.csv`);
    const rows = names.map((text, i) => `"${text}","${text.slice(0, 3)}","POINT (${i} ${i})"`);
    writeFileSync(csv, [`NAME,${REGION},WKT`, ...rows].join('\n'));
    const options = ['-oo', 'GEOM_POSSIBLE_NAMES=WKT', '-oo', 'KEEP_GEOM_COLUMNS=NO', '-a_srs', 'EPSG:4326'];
    execFileSync('ogr2ogr', ['-f', 'ESRI Shapefile', join(dataDir, `${name}.shp`), csv, '-lco', `ENCODING=${lco}`, ...options]);
    rmSync(csv);
    rmSync(join(dataDir, `${name}.cpg`));
    editFile(join(dataDir, `${name}.dbf`), (bytes) => {
      bytes[29] = 0;
      return bytes;
    });
  }
  catalog = createCatalog({ dataDir, cacheBytes: 0 });
});
afterAll(async () => {
  await catalog.close();
  removeTempDirs();
});

/** Each feature's fields as `ogrinfo -q -geom=NO` prints them, its bytes read as `encoding`. */
function gdalFeatures(name: FileName): Record<string, string>[] {
  const listing = execFileSync('ogrinfo', ['-ro', '-q', '-geom=NO', join(dataDir, `${name}.shp`), name]);
  // iconv-lite, not TextDecoder: Node 20's TextDecoder decodes windows-1252 as ISO-8859-1 (0x80 is no €).
  const text = iconv.decode(listing, FILES[name].gdalOutput);
  return text
    .split(/^OGRFeature\(\w+\):\d+$/m)
    .slice(1)
    .map((block) => Object.fromEntries([...block.matchAll(/^ {2}(.+?) \(\w+\) = (.*)$/gm)].map((match) => [match[1], match[2]])));
}

describe('a .dbf without .cpg or language driver id, as GDAL reads it', () => {
  it.each(Object.keys(FILES) as FileName[])('%s: every value and field name as ogrinfo gives it', async (name) => {
    const bytes = readFileSync(join(dataDir, `${name}.dbf`));
    expect(bytes[29]).toBe(0);
    const shapefile = (await catalog.open(name))!;
    const ours = [];
    for (let fid = 0; fid < shapefile.featureCount; fid++) ours.push(await shapefile.readAttributes(fid));
    const gdal = gdalFeatures(name);
    expect(ours).toEqual(gdal);
    expect(ours.map((row) => row.NAME)).toEqual(FILES[name].names);
    expect(shapefile.open.fields.map((field) => field.name)).toEqual(['NAME', REGION]);
  });
});

describe('the rule, value by value', () => {
  const decode = decoderFor(UNDECLARED_ENCODING);
  it.each([
    ['valid UTF-8', Buffer.from('Montréal', 'utf8'), 'Montréal'],
    ['ASCII', Buffer.from('plain  ', 'latin1'), 'plain  '],
    ['not UTF-8: windows-1252', Buffer.from([0x4d, 0x6f, 0x6e, 0x74, 0x72, 0xe9, 0x61, 0x6c]), 'Montréal'],
    ['0x80–0x9F as windows-1252 has them', Buffer.from([0x80, 0x20, 0x93, 0x71, 0x94]), '€ “q”'],
    ['an overlong form is no UTF-8', Buffer.from([0xc0, 0xa9]), 'À©'],
    ['a UTF-8 character cut off at the end is no UTF-8', Buffer.from([0x4d, 0x6f, 0x6e, 0x74, 0xc3]), 'MontÃ'],
    ['windows-1252 that happens to be valid UTF-8 reads as UTF-8 (the rule\'s one error)', Buffer.from([0xc3, 0xa9]), 'é'],
  ])('%s', (_, bytes, text) => {
    expect(decode(new Uint8Array(bytes))).toBe(text);
  });
});

describe('the same text wherever it is read', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ dataDir });
  });
  afterAll(() => server.close());

  async function json(path: string, query: Record<string, string>): Promise<any> {
    const response = await fetch(server.url(`${path}?${new URLSearchParams({ key: TEST_KEY, ...query })}`));
    const body = await response.json();
    expect(response.status, JSON.stringify(body)).toBe(200);
    return body;
  }

  it.each(Object.keys(FILES) as FileName[])('%s: where= on images, /ogc properties and /ogc filter agree', async (name) => {
    const where = `NAME = 'Montréal' OR "${REGION}" = 'Zür' OR NAME LIKE '€%'`;
    const images = await json('/REST/v1/shapefiles/images', { file: name, where, size: '16,16', includeHotSpots: '1', hotSpotFields: `NAME,${REGION}`, format: 'json' });
    const spots = images.Resource.ShapefileFeatureImages.map((image: any) => [image.FeatureId, image.FeatureHotSpots[0].Attributes]);
    expect(spots).toEqual([
      [0, { NAME: 'Montréal', [REGION]: 'Mon' }],
      [1, { NAME: 'Zürich', [REGION]: 'Zür' }],
      [3, { NAME: '€ 5 “q”', [REGION]: '€ 5' }],
    ]);
    const items = await json(`/ogc/collections/${name}/items`, { f: 'json', filter: where });
    expect(items.features.map((feature: any) => [feature.id, feature.properties])).toEqual(spots);
  });
});
