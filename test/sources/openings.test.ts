/**
 * The main thread's opening bytes (src/sources/openings.ts), against a source written to the
 * data-source contract whose reads the test answers one by one: a request is handed only
 * what is held and never waits (what it lacks is fetched once, in the background, for the
 * requests after it); a prefetch has at most four shapefiles under way, a newer listing takes
 * over its queue instead of adding lanes, and a pass ends at the first failure, so a source
 * that lists but refuses reads is not asked for every file.
 */
import { describe, expect, it } from 'vitest';
import { DataSourceUnavailableError } from '../../src/plugin-contract/data-source-errors.ts';
import type { DataSource } from '../../src/plugin-contract/data-source-plugin.ts';
import type { ShapefileFiles } from '../../src/shapefile/file-set.ts';
import { createOpenings } from '../../src/sources/openings.ts';
import { until } from '../support/until.ts';

interface PendingRead {
  name: string;
  answer(bytes: Uint8Array): void;
  fail(error: unknown): void;
}

/** A source whose reads wait until the test answers them. */
function heldSource(): { source: DataSource; pending: PendingRead[]; asked: string[] } {
  const pending: PendingRead[] = [];
  const asked: string[] = [];
  const source: DataSource = {
    describe: () => 'held reads',
    list: async () => [],
    stat: async () => undefined,
    read: (name) =>
      new Promise((answer, fail) => {
        asked.push(name);
        pending.push({ name, answer, fail });
      }),
  };
  return { source, pending, asked };
}

/** A shapefile of a .shp and a .prj, version v1. */
const shapefile = (name: string): ShapefileFiles => ({
  name,
  paths: { shp: `${name}.shp`, prj: `${name}.prj` },
  versions: { shp: { size: 1000, version: 'v1' }, prj: { size: 10, version: 'v1' } },
});

describe('opening bytes on the main thread', () => {
  it('hands a request what is held, without waiting, and fetches what it lacks once for the requests after', async () => {
    const { source, pending, asked } = heldSource();
    const openings = createOpenings(source);
    const roads = shapefile('roads');
    expect(openings.held(roads)).toEqual({});
    expect(openings.held(roads)).toEqual({});
    await until(() => pending.length === 2);
    expect(asked.sort()).toEqual(['roads.prj', 'roads.shp']);
    for (const read of pending.splice(0)) read.answer(new TextEncoder().encode(read.name));
    await until(() => Object.keys(openings.held(roads)).length === 2);
    expect(new TextDecoder().decode(openings.held(roads).prj)).toBe('roads.prj');
    expect(asked).toHaveLength(2);
  });

  it('prefetches four shapefiles at a time, one pass at a time, and ends a pass at the first failure', async () => {
    const { source, pending, asked } = heldSource();
    const openings = createOpenings(source);
    const listed = Array.from({ length: 40 }, (_, i) => shapefile(`s${i}`));
    openings.prefetch(listed);
    openings.prefetch(listed);
    await until(() => pending.length === 8);
    // Four shapefiles of two files each, though two listings asked.
    expect(new Set(pending.map((read) => read.name.split('.')[0])).size).toBe(4);
    for (const read of pending.splice(0)) read.answer(new Uint8Array(4));
    await until(() => pending.length === 8);
    const before = asked.length;
    for (const read of pending.splice(0)) read.fail(new DataSourceUnavailableError('held reads', 'it refused.'));
    // The lanes under way finish their shapefile and stop: nothing more is asked of the source.
    // A failed read settles the lanes through promise callbacks alone: by the next turn of the loop a new read would have been asked.
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked.length).toBe(before);
    expect(asked.length).toBeLessThan(listed.length * 2);
  });
});
