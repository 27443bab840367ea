/**
 * A worker reads a file's whole .shx in the background only once it has missed entries in
 * four blocks of it (src/job-context/index-fill.ts): a request for a few features of one
 * block is one miss, not one per feature. Against a source written to the data-source
 * contract that serves a 20,000-point file (a .shx of ten 16 KiB blocks) and records every
 * read; the fill's first read starts as the fourth block is missed, so the reads are known
 * once the jobs end.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFeatures } from '../../src/job-context/listed-features.ts';
import { createRemoteShapefiles } from '../../src/job-context/remote-shapefiles.ts';
import type { DataSource } from '../../src/plugin-contract/data-source-plugin.ts';
import type { ShapefileFiles } from '../../src/shapefile/file-set.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { createBlockCache } from '../../src/sources/block-cache.ts';
import { WGS84_PRJ } from '../support/fixtures.ts';
import { writeRawShapefile } from '../support/raw-shapefile.ts';
import { makeTempDir } from '../support/temp-dir.ts';

const FEATURES = 20_000;

function pointsSource() {
  const folder = makeTempDir('shapeshot-index-fill-');
  const records = Array.from({ length: FEATURES }, (_, i) => ({ shapeType: ShapeType.Point, xy: new Float64Array([i % 200, Math.floor(i / 200)]) }));
  writeRawShapefile(join(folder, 'points'), ShapeType.Point, records, { prj: WGS84_PRJ });
  const files = new Map(['shp', 'shx', 'prj'].map((kind) => [`points.${kind}`, new Uint8Array(readFileSync(join(folder, `points.${kind}`)))]));
  const reads: string[] = [];
  const source: DataSource = {
    describe: () => 'memory',
    list: async () => [],
    stat: async (name) => ({ size: files.get(name)!.length, version: 'v1' }),
    read: async (name, offset, length) => {
      reads.push(`${name} ${offset}+${length}`);
      return files.get(name)!.slice(offset, offset + length);
    },
  };
  const points: ShapefileFiles = {
    name: 'points',
    paths: { shp: 'points.shp', shx: 'points.shx', prj: 'points.prj' },
    versions: Object.fromEntries([...files].map(([name, bytes]) => [name.slice(name.indexOf('.') + 1), { size: bytes.length, version: 'v1' }])),
  };
  const remote = createRemoteShapefiles({ source, blocks: createBlockCache({ maxBytes: 64 << 20, blockBytes: 16 * 1024 }), cacheBytes: 0, maxOpen: 8, maxSourceBytes: 256 << 20, onProblem: () => undefined });
  const draw = (fids: number[]) =>
    remote.run((opened) => readFeatures(opened.open(points, () => undefined), fids.map((fid) => ({ parent: fid, text: String(fid) })), { useCache: false, maxRings: 1e6, checkpoint: () => undefined }).length, {
      checkpoint: () => undefined,
      waitFor: (work) => work(new AbortController().signal),
    });
  // A fill reads the blocks it misses as one run: more than one block at once.
  const wholeShxRead = () => reads.some((read) => read.startsWith('points.shx') && Number(read.split('+')[1]) > 16 * 1024);
  return { draw, wholeShxRead };
}

describe('the background read of a whole .shx', () => {
  it('is not started by one request for features of one block', async () => {
    const { draw, wholeShxRead } = pointsSource();
    expect(await draw([0, 1, 2, 3, 4, 5])).toBe(6);
    expect(wholeShxRead()).toBe(false);
  });

  it('is started once entries of four blocks were missed', async () => {
    const { draw, wholeShxRead } = pointsSource();
    for (const fid of [0, 2_048, 4_096]) await draw([fid]);
    expect(wholeShxRead()).toBe(false);
    await draw([6_144]);
    expect(wholeShxRead()).toBe(true);
  });
});
