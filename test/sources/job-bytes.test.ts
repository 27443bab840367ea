/**
 * A job's bytes (src/job-context/job-bytes.ts): a scan's chunk is fetched as it is and kept
 * by the job, not passed through the worker's block cache, whose blocks (.shx entries, .dbf
 * rows) many requests share; an entry's read goes through the cache and stays there.
 */
import { describe, expect, it } from 'vitest';
import { jobBytes } from '../../src/job-context/job-bytes.ts';
import type { DataSource } from '../../src/plugin-contract/data-source-plugin.ts';
import { BytesNotHeld } from '../../src/shapefile/byte-reader.ts';
import { createBlockCache } from '../../src/sources/block-cache.ts';
import { readBudget } from '../../src/sources/read-budget.ts';

const FILE = { name: 'big.dbf', version: 'v1', size: 4 << 20 };
const source: DataSource = {
  describe: () => 'memory',
  list: async () => [],
  stat: async () => undefined,
  read: async (_name, offset, length) => new Uint8Array(Math.max(0, Math.min(length, FILE.size - offset))).fill(7),
};

/** Reads `length` bytes at `offset` as a reader does: a miss, the fetch, the read again. */
async function readThrough(bytes: ReturnType<typeof jobBytes>, offset: number, length: number): Promise<Uint8Array> {
  try {
    return bytes.read(FILE, offset, length);
  } catch (missing) {
    if (!(missing instanceof BytesNotHeld)) throw missing;
    await bytes.fetch(missing, new AbortController().signal);
    return bytes.read(FILE, offset, length);
  }
}

describe("a job's bytes", () => {
  it('keep a scan chunk to the job, out of the block cache', async () => {
    const blocks = createBlockCache({ maxBytes: 64 << 20, blockBytes: 16 * 1024 });
    const bytes = jobBytes(source, blocks, readBudget(256 << 20));
    expect((await readThrough(bytes, 0, 1 << 20)).length).toBe(1 << 20);
    expect(blocks.bytes).toBe(0);
  });

  it('read an entry through the block cache, where it stays for other jobs', async () => {
    const blocks = createBlockCache({ maxBytes: 64 << 20, blockBytes: 16 * 1024 });
    await readThrough(jobBytes(source, blocks, readBudget(256 << 20)), 100, 8);
    expect(blocks.held({ source, name: FILE.name, version: FILE.version, offset: 100, length: 8 })).toHaveLength(8);
  });
});
