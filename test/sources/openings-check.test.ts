/**
 * A page of /ogc/collections checks its shapefiles on the main thread (src/sources/openings.ts,
 * check) against a source written to the data-source contract whose reads the test answers:
 * the page waits for its files' opening bytes and hands them on; a file the source refuses
 * (a refusal no retry fixes: a 403 on that object) is left out and named, and stays named
 * (refused()) until it is read again, and later passes do not ask it again at that version;
 * a file gone since the listing is left out without a word; a failure of the source (one a
 * retry may fix) fails the page.
 */
import { describe, expect, it } from 'vitest';
import { DataSourceUnavailableError, FileChangedError } from '../../src/plugin-contract/data-source-errors.ts';
import type { DataSource } from '../../src/plugin-contract/data-source-plugin.ts';
import type { ShapefileFiles } from '../../src/shapefile/file-set.ts';
import { createOpenings } from '../../src/sources/openings.ts';

/** A source whose reads of each file go as `outcomes` says: the bytes of its name, or an error. */
function scriptedSource(outcomes: Map<string, () => Error>): { source: DataSource; asked: string[] } {
  const asked: string[] = [];
  const source: DataSource = {
    describe: () => 'the scripted source',
    list: async () => [],
    stat: async () => undefined,
    read: async (name) => {
      asked.push(name);
      const failure = outcomes.get(name);
      if (failure) throw failure();
      return new TextEncoder().encode(name);
    },
  };
  return { source, asked };
}

/** A shapefile of a .shp and a .prj, version v1. */
const shapefile = (name: string): ShapefileFiles => ({
  name,
  paths: { shp: `${name}.shp`, prj: `${name}.prj` },
  versions: { shp: { size: 1000, version: 'v1' }, prj: { size: 10, version: 'v1' } },
});

const forbidden = () => new DataSourceUnavailableError('the scripted source', "it answered 403 Forbidden to a read of 'forbidden.shp'.", null);

describe("a page's shapefiles checked", () => {
  it('come with their opening bytes; one the source refuses is left out and named until it is read again', async () => {
    const outcomes = new Map([['forbidden.shp', forbidden]]);
    const { source, asked } = scriptedSource(outcomes);
    const openings = createOpenings(source);
    const checked = await openings.check([shapefile('alpha'), shapefile('forbidden'), shapefile('beta')], undefined);
    expect(checked.passed.map((files) => files.name)).toEqual(['alpha', 'beta']);
    expect(new TextDecoder().decode(checked.passed[0].opening?.prj)).toBe('alpha.prj');
    expect(checked.refused).toEqual([`forbidden.shp: Data source the scripted source is unavailable: it answered 403 Forbidden to a read of 'forbidden.shp'.`]);
    expect(openings.refused()).toEqual(checked.refused);

    // A listing's pass does not ask it again at that version; a page asks again, and once it reads, it is named no more.
    openings.prefetch([shapefile('forbidden')]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(asked.filter((name) => name === 'forbidden.shp')).toHaveLength(1);
    outcomes.delete('forbidden.shp');
    expect((await openings.check([shapefile('forbidden')], undefined)).passed.map((files) => files.name)).toEqual(['forbidden']);
    expect(openings.refused()).toEqual([]);
  });

  it('leave out a file gone since the listing without a word', async () => {
    const { source } = scriptedSource(new Map([['gone.shp', () => new FileChangedError('the scripted source', 'gone.shp')]]));
    const checked = await createOpenings(source).check([shapefile('gone'), shapefile('alpha')], undefined);
    expect(checked).toMatchObject({ passed: [{ name: 'alpha' }], refused: [] });
  });

  it('fail as the source does when a retry may help', async () => {
    const down = new DataSourceUnavailableError('the scripted source', 'it answered 503 to a read (tried 2 times).');
    const { source } = scriptedSource(new Map([['beta.shp', () => down]]));
    await expect(createOpenings(source).check([shapefile('alpha'), shapefile('beta')], undefined)).rejects.toBe(down);
  });

  it("stop waiting when the page's signal fires", async () => {
    const source: DataSource = { describe: () => 'a silent source', list: async () => [], stat: async () => undefined, read: () => new Promise(() => undefined) };
    const page = new AbortController();
    const checked = createOpenings(source).check([shapefile('alpha')], page.signal);
    page.abort(new Error('the request is over'));
    await expect(checked).rejects.toThrow('the request is over');
  });
});
