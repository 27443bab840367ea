/**
 * The HTML pages ask the workers for features without coordinates (geometry 'type'): the page
 * shows only the type, and its features are the one thing the event loop parses.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { featureItem, featureItems, type ItemFeature, type ItemsPage } from '../../src/ogc-jobs/feature-items.ts';
import { createDataFolder } from '../../src/shapefile/data-folder.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { fixturesOnTestThread } from './support.ts';

const { dir, shapefiles, context } = fixturesOnTestThread();
const folder = createDataFolder(dir);
afterAll(() => {
  shapefiles.close();
  removeTempDirs();
});

const limits = { maxPageVertices: 1_000_000, maxRings: 100_000, maxAnswerBytes: 1 << 24 };
const parsed = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

describe("features with geometry 'type'", () => {
  it('carry their geometry types, ids and properties as whole ones do, and no coordinates', async () => {
    const files = (await folder.find('squares'))!;
    const page = (detail: 'whole' | 'type') =>
      parsed((featureItems({ files, query: {}, offset: 0, limit: 5, geometry: detail, limits }, context).result as ItemsPage).features);
    const whole = page('whole');
    const typed = page('type');
    expect(typed.length).toBeGreaterThan(1);
    expect(typed).toEqual(whole.map((feature: { geometry: { type: string } | null }) => ({ ...feature, geometry: feature.geometry && { type: feature.geometry.type } })));
    expect(JSON.stringify(typed)).not.toContain('coordinates');

    const item = parsed((featureItem({ files, fid: 1, geometry: 'type', limits }, context).result as ItemFeature).feature);
    expect(item).toEqual(typed[1]);
  });
});
