import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createCatalog, type CatalogLogger, type TestCatalog } from '../support/catalog.ts';
import { encodingFromLabel } from '../../src/shapefile/encoding.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';
import { editFile, writeShapefile } from './helpers.ts';

afterAll(removeTempDirs);

const catalogs: TestCatalog[] = [];
afterEach(async () => {
  await Promise.all(catalogs.splice(0).map((catalog) => catalog.close()));
});

const NAMES = ['Curaçao', 'Fryslân', "'s-Hertogenbosch"];

/** Writes the names in `encoding` and reads them back through a fresh catalog. */
async function roundTrip(encoding: string | undefined, prepare: (base: string) => void = () => {}, logger?: CatalogLogger) {
  const dir = makeTempDir();
  const base = writeShapefile(
    dir,
    'places',
    ShapeType.Point,
    NAMES.map((_, i) => ({ type: 'Point', coordinates: [i, i] })),
    { encoding, attributes: NAMES.map((name) => ({ NAME: name })) },
  );
  prepare(base);
  const catalog = createCatalog({ dataDir: dir, cacheBytes: 0, logger });
  catalogs.push(catalog);
  const places = (await catalog.open('places'))!;
  const names = [];
  for (let fid = 0; fid < NAMES.length; fid++) names.push((await places.readAttributes(fid)).NAME);
  return { names, base };
}

const setCpg = (text: string) => (base: string) => writeFileSync(`${base}.cpg`, text);
const removeCpg = (base: string) => rmSync(`${base}.cpg`);

describe('.dbf text encoding', () => {
  it('is UTF-8 by default, as the .cpg says', async () => {
    const { names, base } = await roundTrip(undefined);
    expect(names).toEqual(NAMES);
    expect(readFileSync(`${base}.cpg`, 'utf8')).toBe('UTF-8');
  });

  it.each(['1252', 'ANSI 1252', 'CP1252', 'windows-1252', 'ISO-8859-1', '88591'])(
    'follows a .cpg saying %j',
    async (cpg) => {
      const { names } = await roundTrip('windows-1252', setCpg(cpg));
      expect(names).toEqual(NAMES);
    },
  );

  it.each([
    ['windows-1252', 0x57],
    ['cp850', 0x02],
    ['cp437', 0x01],
  ])('without a .cpg, follows the language driver id of a %s file', async (encoding, ldid) => {
    const { names, base } = await roundTrip(encoding, removeCpg);
    expect(readFileSync(`${base}.dbf`)[29]).toBe(ldid);
    expect(names).toEqual(NAMES);
  });

  it('without a .cpg or a known language driver, reads windows-1252 text that is not UTF-8', async () => {
    const { names } = await roundTrip('windows-1252', (base) => {
      removeCpg(base);
      editFile(`${base}.dbf`, (bytes) => {
        bytes[29] = 0;
        return bytes;
      });
    });
    expect(names).toEqual(NAMES);
  });

  it('falls back to the language driver when the .cpg names no known encoding, and says so', async () => {
    const warnings: object[] = [];
    const { names } = await roundTrip('cp850', setCpg('KLINGON-7'), { warn: (details) => warnings.push(details) });
    expect(names).toEqual(NAMES);
    expect(warnings).toEqual([{ problem: expect.stringMatching(/places\.cpg .*KLINGON-7.*cp850/) }]);
  });

  it('a UTF-8 .cpg over windows-1252 bytes shows replacement characters, not a crash', async () => {
    const { names } = await roundTrip('windows-1252', setCpg('UTF-8'));
    expect(names[0]).toBe('Cura\uFFFDao');
  });

  it('cuts text that does not fit its field at a character boundary', async () => {
    const dir = makeTempDir();
    writeShapefile(dir, 'short', ShapeType.Point, [{ type: 'Point', coordinates: [0, 0] }], {
      fields: [{ name: 'NAME', type: 'C', length: 6 }],
      attributes: [{ NAME: 'Fryslân' }],
    });
    const catalog = createCatalog({ dataDir: dir, cacheBytes: 0 });
    catalogs.push(catalog);
    expect(await (await catalog.open('short'))!.readAttributes(0)).toEqual({ NAME: 'Frysl' });
  });
});

describe('encodingFromLabel', () => {
  it.each([
    ['UTF-8', 'utf-8'],
    ['utf8', 'utf-8'],
    [' 1252\n', 'windows-1252'],
    ['ANSI 1251', 'windows-1251'],
    ['cp1250', 'windows-1250'],
    ['ISO-8859-15', 'iso-8859-15'],
    ['88591', 'iso-8859-1'],
    ['437', 'cp437'],
    ['Shift_JIS', 'shift_jis'],
    ['gibberish', undefined],
  ])('%j is %s', (label, expected) => {
    expect(encodingFromLabel(label)).toBe(expected);
  });
});
