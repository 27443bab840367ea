/**
 * The selections /ogc pages through are kept per worker within SELECTION_CACHE_BYTES, keys
 * included: a filter's text is part of its key and, escaped, up to six times as long as
 * the 4,096 characters a filter may have. Thousands of distinct filters that match nothing
 * (the cheapest to send) must not grow the heap past the bound.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { featureSelection, SELECTION_CACHE_BYTES } from '../../src/ogc-jobs/feature-selection.ts';
import { MAX_FILTER_LENGTH } from '../../src/filter/index.ts';
import { toWgs84 } from '../../src/shapefile/crs.ts';
import { createDataFolder } from '../../src/shapefile/data-folder.ts';
import { liveBytes } from '../support/heap.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { fixturesOnTestThread, noCheckpoint } from './support.ts';

const { dir, shapefiles, context } = fixturesOnTestThread();
afterAll(() => {
  shapefiles.close();
  removeTempDirs();
});

/**
 * The longest filter that matches no country, distinct by `n`: a string of control
 * characters (each escaped to six in the key) with one character beyond Latin-1, so that
 * the key is stored two bytes a character.
 */
function longFilter(n: number): string {
  const prefix = `NAME = '€${n} `;
  return `${prefix}${'\u0001'.repeat(MAX_FILTER_LENGTH - prefix.length - 1)}'`;
}

describe('the selection cache', () => {
  it('holds at most its bound, keys included, however many distinct filters come', async () => {
    const files = (await createDataFolder(dir).find('countries'))!;
    const shapefile = shapefiles.open(files, noCheckpoint);
    const reading = { settings: { shapeType: shapefile.shapeType, toLonLat: toWgs84(shapefile.crs)!, shpFile: 'countries.shp' }, maxRings: 100_000, maxVertices: 2_000_000 };
    expect(longFilter(1)).toHaveLength(MAX_FILTER_LENGTH);
    // A warm-up filter: the file's own structures are not the cache's.
    featureSelection(shapefile, { filter: longFilter(-1) }, reading, context);
    const before = liveBytes();
    for (let n = 0; n < 3000; n++) {
      expect(featureSelection(shapefile, { filter: longFilter(n) }, reading, context)).toEqual({ kind: 'ids', ids: new Uint32Array(0) });
    }
    const grown = liveBytes() - before;
    // 3,000 keys of ~24,600 characters at two bytes: 148 MB if they were all kept.
    expect(grown).toBeLessThan(SELECTION_CACHE_BYTES + 4 * 1024 * 1024);
  }, 120_000);
});
