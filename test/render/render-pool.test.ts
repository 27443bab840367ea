import { afterEach, describe, expect, it } from 'vitest';
import { OverloadedError } from '../../src/errors.ts';
import { createRenderPool, type RenderPool } from '../../src/raster/render-pool.ts';
import { createWorkerPool, type WorkerPool } from '../../src/raster/worker-pool.ts';
import { decodePng } from '../support/png.ts';

const circleSvg = (width: number, height: number) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
  `<circle cx="${width / 2}" cy="${height / 2}" r="${height / 4}" fill="#00ff00"/></svg>`;

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((pool) => pool.close()));
});

function renderPool(workers: number, maxQueue: number): RenderPool {
  const pool = createRenderPool({ workers, maxQueue });
  opened.push(pool);
  return pool;
}

function unreliablePool(workers: number, maxQueue: number): WorkerPool<string, string> {
  const pool = createWorkerPool<string, string>({
    entry: new URL('./fixtures/unreliable-worker.js', import.meta.url),
    workers,
    maxQueue,
    name: 'test pool',
  });
  opened.push(pool);
  return pool;
}

describe('render pool', () => {
  it('renders many images at once, each to its own PNG', async () => {
    const pool = renderPool(2, 32);
    const sizes = Array.from({ length: 20 }, (_, i) => [40 + i, 30 + i] as const);
    const pngs = await Promise.all(sizes.map(([w, h]) => pool.render(circleSvg(w, h), w, h)));
    pngs.forEach((png, i) => {
      const image = decodePng(png);
      expect([image.width, image.height]).toEqual(sizes[i]);
      expect(image.pixel(Math.floor(image.width / 2), Math.floor(image.height / 2))).toEqual([0, 255, 0, 255]);
      expect(image.pixel(0, 0)).toEqual([0, 0, 0, 0]);
    });
  });

  it('refuses at once with OverloadedError when every worker is busy and the queue is full', async () => {
    const pool = renderPool(1, 2);
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => pool.render(circleSvg(64, 48), 64, 48)));
    expect(results.map((result) => result.status)).toEqual([
      'fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected',
    ]);
    const refused = results[3] as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(OverloadedError);
    expect(refused.reason.status).toBe(503);
    // Once the queue has drained, renders are accepted again.
    expect(decodePng(await pool.render(circleSvg(64, 48), 64, 48)).width).toBe(64);
  });

  it('fails only the render whose SVG is bad', async () => {
    const pool = renderPool(1, 4);
    const [bad, good] = await Promise.allSettled([
      pool.render('<svg', 10, 10),
      pool.render(circleSvg(10, 10), 10, 10),
    ]);
    expect(bad.status).toBe('rejected');
    expect((bad as PromiseRejectedResult).reason.message).toMatch(/render pool failed/);
    expect(good.status).toBe('fulfilled');
  });

  it('refuses renders after close, having finished the ones it accepted', async () => {
    const pool = createRenderPool({ workers: 1, maxQueue: 4 });
    const accepted = [pool.render(circleSvg(20, 20), 20, 20), pool.render(circleSvg(20, 20), 20, 20)];
    await pool.close();
    for (const png of await Promise.all(accepted)) expect(decodePng(png).width).toBe(20);
    await expect(pool.render(circleSvg(20, 20), 20, 20)).rejects.toThrow(/closed/);
  });
});

describe('worker pool', () => {
  it('fails the job of a worker that exits, and replaces the worker', async () => {
    const pool = unreliablePool(1, 4);
    const [crashed, next] = await Promise.allSettled([pool.run('exit'), pool.run('after')]);
    expect((crashed as PromiseRejectedResult).reason.message).toMatch(/crashed/);
    expect(next).toEqual({ status: 'fulfilled', value: 'after' });
  });

  it('fails the job of a worker that throws, and leaves the other workers alone', async () => {
    const pool = unreliablePool(2, 4);
    const slow = pool.run('slow:200');
    await expect(pool.run('uncaught')).rejects.toThrow(/crashed: boom/);
    await expect(slow).resolves.toBe('slow:200');
    await expect(pool.run('again')).resolves.toBe('again');
  });
});
