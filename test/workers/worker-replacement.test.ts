/**
 * A worker replaced because it would not stop a cancelled job hands the jobs it held back
 * to the queue: they keep their signals (their client, their time budget), so that one
 * cancelled while it waits again is dropped rather than run for nobody. Driven by events
 * (the stuck job says it started; the pool says it replaced the worker), not by timing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createWorkerPool, type WorkerPool } from '../../src/workers/worker-pool.ts';

const pools: WorkerPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

/** A one-worker pool that replaces a stuck worker soon, and a promise of its first replacement. */
function replacingPool() {
  let replaced!: () => void;
  const replacement = new Promise<void>((resolve) => (replaced = resolve));
  const pool = createWorkerPool({
    entry: new URL('./fixtures/replacement-worker.ts', import.meta.url),
    workers: 1,
    name: 'replacement pool',
    options: {},
    stuckAfterMs: 50,
    // Said just before the worker is replaced: the continuation runs once the replacement is done.
    onNote: (text) => /was replaced/.test(text) && replaced(),
  });
  pools.push(pool);
  return { pool, replacement };
}

/** Starts a job that never looks at its cancellation; resolves (to the job's promise, wrapped) once it runs. */
async function startUnstoppable(pool: WorkerPool, signal: AbortSignal): Promise<{ job: Promise<unknown> }> {
  const started = new SharedArrayBuffer(4);
  const job = pool.run('unstoppable', { started }, { signal });
  job.catch(() => undefined);
  const flag = new Int32Array(started);
  // In Node since 16; TypeScript's library here does not declare it yet.
  const { waitAsync } = Atomics as unknown as { waitAsync(array: Int32Array, index: number, value: number): { async: boolean; value: unknown } };
  const waiting = waitAsync(flag, 0, 0);
  if (waiting.async) await waiting.value;
  return { job };
}

describe('worker replacement', () => {
  it('drops a job it held, cancelled while it waits for the new worker: the job rejects with its reason and never runs', async () => {
    const { pool, replacement } = replacingPool();
    await pool.ready();
    const stuck = new AbortController();
    const { job: stuckJob } = await startUnstoppable(pool, stuck.signal);
    // Held by the same worker, behind the stuck job.
    const held = new AbortController();
    const heldJob = pool.run('record', 'held', { signal: held.signal });
    heldJob.catch(() => undefined);
    expect(pool.stats).toMatchObject({ running: 2, waiting: 0 });

    stuck.abort(new Error('time is up'));
    await expect(stuckJob).rejects.toThrow('time is up');
    await replacement;
    // Back in the queue: the new worker is still loading.
    expect(pool.stats.waiting).toBe(1);
    held.abort(new Error('client gone'));
    await expect(heldJob).rejects.toThrow('client gone');
    expect(pool.stats.waiting).toBe(0);
    // The new worker never ran it.
    expect(await pool.run('ran', null)).toBe(0);
  });

  it('runs the held jobs nobody cancelled on the new worker', async () => {
    const { pool, replacement } = replacingPool();
    await pool.ready();
    const stuck = new AbortController();
    await startUnstoppable(pool, stuck.signal);
    const held = pool.run('record', 'held', { signal: new AbortController().signal });
    stuck.abort(new Error('time is up'));
    await replacement;
    await expect(held).resolves.toBe('held');
    expect(await pool.run('ran', null)).toBe(1);
  });
});
