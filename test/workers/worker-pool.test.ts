import { afterEach, describe, expect, it } from 'vitest';
import { ServiceError } from '../../src/errors.ts';
import { createWorkerPool, type WorkerPool } from '../../src/workers/worker-pool.ts';
import { until } from '../support/until.ts';
import { blockUntilStarted, newBoard, release, untilStarted, type BoardOptions } from './fixtures/board.ts';

const pools: WorkerPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

/** A pool of test workers, with the board its workers say through that a job started (fixtures/board.ts). */
function testPool(workers: number, options: { stuckAfterMs?: number; notes?: string[] } = {}): WorkerPool & { board: Int32Array } {
  const board = newBoard();
  const pool = createWorkerPool<BoardOptions>({
    entry: new URL('./fixtures/test-worker.ts', import.meta.url),
    workers,
    name: 'test pool',
    options: { board: board.buffer as SharedArrayBuffer },
    stuckAfterMs: options.stuckAfterMs,
    onNote: (text) => options.notes?.push(text),
  });
  pools.push(pool);
  return Object.assign(pool, { board });
}

const abortedWith = (reason: string) => {
  const controller = new AbortController();
  return { signal: controller.signal, abort: () => controller.abort(new Error(reason)) };
};

describe('the worker pool', () => {
  it('runs jobs on its workers and answers each with its own result', async () => {
    const pool = testPool(2);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => pool.run('echo', `job ${i}`)));
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => `job ${i}`));
  });

  it('hands a worker its next job while it runs one, so it need not wait for a busy pool thread', async () => {
    const pool = testPool(1);
    await pool.run('echo', 'started');
    const first = pool.run('held', null);
    const next = pool.run('announce', null);
    // This thread is busy, as one answering hundreds of connections would be: it hands out
    // nothing until the worker has gone from the first job to the next.
    expect(blockUntilStarted(pool.board, 1, 10_000)).toBe(true);
    release(pool.board);
    expect(blockUntilStarted(pool.board, 2, 10_000), 'the worker started its next job while this thread was busy').toBe(true);
    await expect(first).resolves.toBe('released');
    await expect(next).resolves.toBe('announced');
  });

  it('gives the event loop a turn between held jobs (where native memory is freed)', async () => {
    const pool = testPool(1);
    await pool.ready();
    const [, ran] = await Promise.all([pool.run('scheduleImmediate', null), pool.run<boolean>('immediateRan', null)]);
    expect(ran).toBe(true);
  });

  it("keeps a service error's status and text, and hides other errors' text behind the pool's name", async () => {
    const pool = testPool(1);
    const refused = await pool.run('refuse', null).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ServiceError);
    expect((refused as ServiceError).status).toBe(400);
    expect((refused as Error).message).toBe('Parameter x is wrong.');
    const failed = await pool.run('fail', null).catch((error: unknown) => error);
    expect(failed).not.toBeInstanceOf(ServiceError);
    expect((failed as Error).message).toMatch(/^test pool failed: an internal detail/);
  });

  it('stops a job waiting outside its thread when it is cancelled, whatever jobs came and went while it waited', async () => {
    const notes: string[] = [];
    const pool = testPool(1, { notes });
    await pool.ready();
    const waiting = abortedWith('client gone');
    const waited = pool.run('waitsUntilCancelled', null, { signal: waiting.signal }).catch((error: unknown) => error);
    await untilStarted(pool.board, 1);
    // Seven jobs come and go while it waits: the next one is the eighth after it, which a
    // place by job number (seq % 8) would have put on the waiting job's own place.
    for (let i = 0; i < 7; i++) await pool.run('echo', i);
    const later = abortedWith('also gone');
    const held = pool.run('held', null, { signal: later.signal }).catch((error: unknown) => error);
    await untilStarted(pool.board, 2);
    waiting.abort();
    later.abort();
    await Promise.all([waited, held]);
    // Both stop on their own cancellation marks: the pool holds no job, and had to replace no worker.
    await until(() => pool.stats.running === 0);
    expect(notes).toEqual([]);
  });

  it('drops a waiting job whose signal aborts: it rejects at once and never runs', async () => {
    const pool = testPool(1);
    await pool.ready();
    const first = pool.run('held', null);
    const waiting = abortedWith('client gone');
    const dropped = pool.run('busy', 50, { signal: waiting.signal });
    await untilStarted(pool.board, 1);
    waiting.abort();
    await expect(dropped).rejects.toThrow('client gone');
    expect(pool.stats.waiting).toBe(0);
    release(pool.board);
    await first;
    expect(await pool.run('finished', null)).toBe(1);
  });

  it('stops a running job at its next checkpoint: it rejects at once and the worker takes the next job', async () => {
    const pool = testPool(1);
    const running = abortedWith('time is up');
    const job = pool.run('held', null, { signal: running.signal });
    const next = pool.run('echo', 'next');
    await untilStarted(pool.board, 1);
    running.abort();
    await expect(job).rejects.toThrow('time is up');
    // The job, held until released (never), did not finish; the worker moved on.
    await expect(next).resolves.toBe('next');
    expect(await pool.run('finished', null)).toBe(0);
    expect(pool.stats).toMatchObject({ cancelled: 1, running: 0, waiting: 0 });
  });

  it('replaces a worker that does not stop a cancelled job, and says so', async () => {
    const notes: string[] = [];
    const pool = testPool(1, { stuckAfterMs: 200, notes });
    const running = abortedWith('time is up');
    const job = pool.run('stuck', null, { signal: running.signal });
    await untilStarted(pool.board, 1);
    running.abort();
    await expect(job).rejects.toThrow('time is up');
    await expect(pool.run('echo', 'after')).resolves.toBe('after');
    expect(notes.join()).toMatch(/did not stop a cancelled job/);
  });

  it('fails the job of a worker that exits, and replaces the worker', async () => {
    const pool = testPool(1);
    const [crashed, next] = await Promise.allSettled([pool.run('exit', null), pool.run('echo', 'after')]);
    expect((crashed as PromiseRejectedResult).reason.message).toMatch(/crashed/);
    expect(next).toEqual({ status: 'fulfilled', value: 'after' });
  });

  it('fails the job of a worker that throws, and leaves the other workers alone', async () => {
    const pool = testPool(2);
    const running = pool.run('held', null);
    await untilStarted(pool.board, 1);
    await expect(pool.run('uncaught', null)).rejects.toThrow(/crashed: boom/);
    release(pool.board);
    await expect(running).resolves.toBe('released');
    await expect(pool.run('echo', 'again')).resolves.toBe('again');
  });

  it('says when every worker has loaded', async () => {
    const pool = testPool(2);
    await pool.ready();
    // Loaded workers take a job at once: nothing waits.
    const results = Promise.all([pool.run('echo', 'a'), pool.run('echo', 'b')]);
    expect(pool.stats).toMatchObject({ waiting: 0, running: 2 });
    await results;
  });

  it('passes on what a worker asks to have logged', async () => {
    const notes: string[] = [];
    const pool = testPool(1, { notes });
    await pool.run('note', 'a side file is unusable');
    expect(notes).toEqual(['a side file is unusable']);
  });

  it('refuses jobs after close, having finished the ones it accepted', async () => {
    const pool = testPool(1);
    const accepted = [pool.run('busy', 20), pool.run('echo', 'second')];
    await pool.close();
    expect(await Promise.all(accepted)).toEqual([20, 'second']);
    await expect(pool.run('echo', 'late')).rejects.toThrow(/shutting down/);
  });
});
