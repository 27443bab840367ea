/**
 * The selections items pages through, on the test's thread: pages of "every feature but the
 * deleted" found by arithmetic, and each scan done once per version of a file and query.
 */
import { utimesSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { featureSelection, listedFeatures, matchCount, pageOf, type FeatureSelection } from '../../src/ogc-jobs/feature-selection.ts';
import { toWgs84 } from '../../src/shapefile/crs.ts';
import { createDataFolder } from '../../src/shapefile/data-folder.ts';
import type { OpenShapefile } from '../../src/shapefile/file-set.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { fixturesOnTestThread, noCheckpoint } from './support.ts';

const { dir, shapefiles, context } = fixturesOnTestThread();
const folder = createDataFolder(dir);
afterAll(() => {
  shapefiles.close();
  removeTempDirs();
});

/** A file as a worker has it open, counting its scans: walks of the .shp and passes over the .dbf. */
async function countingScans(name: string) {
  const open = shapefiles.open((await folder.find(name))!, noCheckpoint);
  const scans = { walks: 0, dbfPasses: 0 };
  const shapefile = new Proxy(open, {
    get(target, property) {
      if (property === 'walk') scans.walks++;
      if (property === 'attributeRows') scans.dbfPasses++;
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  }) as OpenShapefile;
  const reading = { settings: { shapeType: open.shapeType, toLonLat: toWgs84(open.crs)!, shpFile: `${name}.shp` }, maxRings: 100_000, maxVertices: 2_000_000 };
  return { shapefile, scans, reading, files: (await folder.find(name))! };
}

describe('every feature but the deleted', () => {
  it('pages by arithmetic over the ids left out', () => {
    const selection: FeatureSelection = { kind: 'all-but', records: 10, missing: Uint32Array.of(0, 1, 5, 9) };
    const listed = [2, 3, 4, 6, 7, 8];
    expect(matchCount(selection)).toBe(6);
    for (let offset = 0; offset <= 7; offset++) {
      for (const limit of [1, 2, 3, 10]) expect(pageOf(selection, offset, limit), `${offset}, ${limit}`).toEqual(listed.slice(offset, offset + limit));
    }
  });

  it("is found by one pass over the .dbf's deletion flags, once per version of the file", async () => {
    const { shapefile, scans } = await countingScans('deleted');
    expect(listedFeatures(shapefile, context)).toEqual({ kind: 'all-but', records: 4, missing: Uint32Array.of(1) });
    listedFeatures(shapefile, context);
    expect(scans.dbfPasses).toBe(1);
    // The same files opened again (closed to make room for others, say) are not scanned again…
    const again = await countingScans('deleted');
    listedFeatures(again.shapefile, context);
    expect(again.scans.dbfPasses).toBe(0);
    // …another version of them is.
    const { paths } = (await folder.find('deleted'))!;
    utimesSync(paths.dbf!, new Date(), new Date(Date.now() + 60_000));
    const changed = await countingScans('deleted');
    expect(changed.shapefile.version).not.toBe(shapefile.version);
    listedFeatures(changed.shapefile, context);
    expect(changed.scans.dbfPasses).toBe(1);
  });
});

describe('a bbox', () => {
  it('is scanned for once, and every page after the first is taken from what the scan found', async () => {
    const { shapefile, scans, reading } = await countingScans('countries');
    const benelux = { bbox: [{ xmin: 2, ymin: 49, xmax: 8, ymax: 54 }] };
    const first = featureSelection(shapefile, benelux, reading, context);
    const second = featureSelection(shapefile, benelux, reading, context);
    expect(second).toBe(first);
    expect(scans.walks).toBe(1);
    expect(pageOf(first, 0, 3).concat(pageOf(first, 3, 100))).toEqual(Array.from((first as { ids: Uint32Array }).ids));
    // Another box is found in the same spatial index: the file is walked once a version (docs/decisions.md, "Spatial index").
    featureSelection(shapefile, { bbox: [{ xmin: 2, ymin: 49, xmax: 9, ymax: 54 }] }, reading, context);
    expect(scans.walks).toBe(1);
  });
});
