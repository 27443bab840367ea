/**
 * A job reading a list of features from a remote source fetches what the whole list misses
 * together (shapefile/byte-reader.ts, readingEach): a few phases (headers, index entries,
 * records with their rows), not one run of the job per feature; records that touch are one
 * request (job-context/job-bytes.ts). Counted on the sample
 * countries served from memory by a source written to the data-source contract.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readFeatures } from '../../src/job-context/listed-features.ts';
import { createRemoteShapefiles } from '../../src/job-context/remote-shapefiles.ts';
import type { DataSource } from '../../src/plugin-contract/data-source-plugin.ts';
import { FILE_KINDS } from '../../src/shapefile/file-kinds.ts';
import type { ShapefileFiles } from '../../src/shapefile/file-set.ts';
import { createBlockCache } from '../../src/sources/block-cache.ts';

const DATA = fileURLToPath(new URL('../../data/', import.meta.url));
const files = new Map(readdirSync(DATA).map((name) => [name, new Uint8Array(readFileSync(DATA + name))]));

describe('a remote job reading a list of features', () => {
  it('runs a few phases whatever the list’s length', async () => {
    let reads = 0;
    const source: DataSource = {
      describe: () => 'memory',
      list: async () => [],
      stat: async (name) => ({ size: files.get(name)!.length, version: 'v1' }),
      read: async (name, offset, length) => {
        reads++;
        return files.get(name)!.slice(offset, offset + length);
      },
    };
    const remote = createRemoteShapefiles({ source, blocks: createBlockCache({ maxBytes: 64 << 20 }), cacheBytes: 0, maxOpen: 8, maxSourceBytes: 256 << 20, onProblem: () => undefined });
    const paths: ShapefileFiles['paths'] = { shp: 'countries.shp', ...Object.fromEntries(FILE_KINDS.map((kind) => [kind, `countries.${kind}`])) };
    const versions = Object.fromEntries(FILE_KINDS.map((kind) => [kind, { size: files.get(`countries.${kind}`)!.length, version: 'v1' }]));
    const countries: ShapefileFiles = { name: 'countries', paths, versions };
    const refs = Array.from({ length: 241 }, (_, i) => ({ parent: (i * 37) % 241, text: String(i) }));
    let runs = 0;
    const read = await remote.run(
      (opened) => {
        runs++;
        return readFeatures(opened.open(countries, () => undefined), refs, { useCache: false, maxRings: 1e6, checkpoint: () => undefined }).length;
      },
      { checkpoint: () => undefined, waitFor: (work) => work(new AbortController().signal) },
    );
    expect(read).toBe(241);
    // Opening, the index entries, the records and rows: one run each, and the last draws.
    expect(runs).toBeLessThanOrEqual(4);
    // The records of every feature touch each other: one run of the .shp, not 241 requests.
    expect(reads).toBeLessThan(20);
  });
});
