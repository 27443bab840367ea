import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isFileChanged } from '../../src/plugin-contract/data-source-errors.ts';
import { createLocalSource } from '../../src/sources/local-source.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

/** The local source keeps the data folder's rules: a symlink counts only when it leads to a regular file inside. */
afterAll(() => removeTempDirs());

describe('the local source', () => {
  it('lists and reads a symlink inside the folder, and neither lists nor reads one that leads outside', async () => {
    const outside = makeTempDir();
    writeFileSync(join(outside, 'secret.shp'), 'outside');
    const folder = makeTempDir();
    writeFileSync(join(folder, 'real.shp'), 'inside');
    mkdirSync(join(folder, 'sub'));
    symlinkSync(join(folder, 'real.shp'), join(folder, 'alias.shp'));
    symlinkSync(join(outside, 'secret.shp'), join(folder, 'escape.shp'));
    const source = createLocalSource(folder);
    const signal = AbortSignal.timeout(10_000);
    expect((await source.list(signal)).map((entry) => entry.name).sort()).toEqual(['alias.shp', 'real.shp']);
    expect(new TextDecoder().decode(await source.read('alias.shp', 0, 100, signal))).toBe('inside');
    expect(await source.stat('escape.shp', signal)).toBeUndefined();
    await expect(source.read('escape.shp', 0, 100, signal)).rejects.toSatisfy(isFileChanged);
    await expect(source.read('../' + outside.split('/').pop() + '/secret.shp', 0, 100, signal)).rejects.toSatisfy(isFileChanged);
  });
});
