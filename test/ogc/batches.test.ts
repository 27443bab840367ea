/**
 * A page's collections described in batches (src/ogc/batches.ts): every item once, the results
 * in the items' order whatever order the batches end in, at most `parallel` batches under way,
 * and none started once one has failed.
 */
import { describe, expect, it } from 'vitest';
import { inBatches } from '../../src/ogc/batches.ts';

/** A batch's work that ends when the test says, in any order. */
function heldWork() {
  const started: { batch: number[]; finish(): void; fail(error: Error): void }[] = [];
  const run = (batch: number[]) =>
    new Promise<number[]>((resolve, reject) => started.push({ batch, finish: () => resolve(batch.map((item) => item * 10)), fail: reject }));
  return { started, run };
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('work in batches', () => {
  it('runs each batch once, at most `parallel` at a time, and gives the results in the items\' order', async () => {
    const { started, run } = heldWork();
    const items = Array.from({ length: 7 }, (_, i) => i);
    const done = inBatches(items, 3, 2, run);
    await nextTurn();
    expect(started.map(({ batch }) => batch)).toEqual([
      [0, 1, 2],
      [3, 4, 5],
    ]);
    started[1].finish();
    await nextTurn();
    expect(started.map(({ batch }) => batch)).toEqual([[0, 1, 2], [3, 4, 5], [6]]);
    started[2].finish();
    started[0].finish();
    expect(await done).toEqual([0, 10, 20, 30, 40, 50, 60]);
  });

  it('fails as its first failed batch, and starts no batch after it', async () => {
    const { started, run } = heldWork();
    const done = inBatches(Array.from({ length: 10 }, (_, i) => i), 2, 2, run);
    await nextTurn();
    started[0].fail(new Error('the source is down'));
    await expect(done).rejects.toThrow('the source is down');
    started[1].finish();
    await nextTurn();
    expect(started).toHaveLength(2);
  });

  it('has nothing to run for no items', async () => {
    const { started, run } = heldWork();
    expect(await inBatches([], 100, 2, run)).toEqual([]);
    expect(started).toHaveLength(0);
  });
});
