/**
 * The box tree's searches against a brute-force filter of the same boxes: random boxes, and
 * boxes a sort or a selection can stumble on (centres ordered to defeat median-of-three,
 * many equal boxes, boxes of zero size), one item and none; and its build's steps on such
 * boxes, counted through its pacer.
 */
import { describe, expect, it } from 'vitest';
import { StepPacer, STEPS_PER_CHECKPOINT } from '../../src/cancellation/checkpoint.ts';
import { BoxTree } from '../../src/structures/box-tree.ts';
import { seededRandom } from '../support/seeded-random.ts';
import { CountingPacer } from '../support/counting-pacer.ts';

const pacer = new StepPacer(() => undefined);

type Box = [number, number, number, number];

function boxesOf(list: Box[]): Float64Array {
  return Float64Array.from(list.flat());
}

function found(tree: BoxTree, [minX, minY, maxX, maxY]: Box): number[] {
  const items: number[] = [];
  tree.search(minX, minY, maxX, maxY, (item) => void items.push(item));
  return items.sort((a, b) => a - b);
}

function bruteForce(list: Box[], [minX, minY, maxX, maxY]: Box): number[] {
  return list.flatMap(([x0, y0, x1, y1], item) => (x0 <= maxX && y0 <= maxY && x1 >= minX && y1 >= minY ? [item] : []));
}

/** Queries over the boxes' area and around it: random ones, each box itself, its corners as points, and everything. */
function queries(list: Box[], next: () => number, span: number): Box[] {
  const randomBoxes = Array.from({ length: 60 }, (): Box => {
    const x = (next() * 1.2 - 0.1) * span;
    const y = (next() * 1.2 - 0.1) * span;
    const size = next() * next() * span;
    return [x, y, x + size, y + size];
  });
  const own = list.slice(0, 20).flatMap(([x0, y0, x1, y1]): Box[] => [[x0, y0, x1, y1], [x0, y0, x0, y0], [x1, y1, x1, y1]]);
  return [...randomBoxes, ...own, [-Infinity, -Infinity, Infinity, Infinity], [span * 3, span * 3, span * 4, span * 4]];
}

function expectSearchesAsBruteForce(list: Box[], span: number, seed: number): void {
  const tree = new BoxTree(boxesOf(list), pacer);
  const next = seededRandom(seed);
  for (const query of queries(list, next, span)) {
    const expected = bruteForce(list, query);
    expect(found(tree, query), `query ${query}`).toEqual(expected);
    expect(tree.search(...query, () => true)).toBe(expected.length > 0);
  }
}

describe('a search', () => {
  it('finds exactly the boxes a brute-force filter finds, on random boxes', () => {
    const next = seededRandom(1);
    const list = Array.from({ length: 5000 }, (): Box => {
      const x = next() * 1000;
      const y = next() * 1000;
      return [x, y, x + next() * 30, y + next() * 30];
    });
    expectSearchesAsBruteForce(list, 1000, 2);
  });

  it('does so on centres ordered to defeat a median-of-three pivot (organ pipes, sorted, reversed, sawtooth)', () => {
    const count = 2048;
    const orders: ((i: number) => number)[] = [
      (i) => (i < count / 2 ? i : count - i),
      (i) => i,
      (i) => count - i,
      (i) => (i % 64) * 64 + Math.floor(i / 64),
      // The median-of-three killer: the first, middle and last of every range are its smallest.
      (i) => (i % 2 === 0 ? i / 2 : count / 2 + i),
    ];
    for (const [k, order] of orders.entries()) {
      const list = Array.from({ length: count }, (_, i): Box => [order(i), order((i * 7) % count), order(i) + 2, order((i * 7) % count) + 2]);
      expectSearchesAsBruteForce(list, 2 * count, 10 + k);
    }
  });

  it('does so on many equal boxes, and on boxes of zero size (points, and lines along an axis)', () => {
    const equal = Array.from({ length: 3000 }, (_, i): Box => (i % 3 === 0 ? [5, 5, 6, 6] : [5, 5, 5, 5]));
    expectSearchesAsBruteForce(equal, 10, 20);
    const next = seededRandom(21);
    const degenerate = Array.from({ length: 3000 }, (_, i): Box => {
      const x = Math.floor(next() * 50);
      const y = Math.floor(next() * 50);
      return i % 2 === 0 ? [x, y, x, y] : [x, y, x, y + 3];
    });
    expectSearchesAsBruteForce(degenerate, 50, 22);
  });

  it('does so with one item and with none', () => {
    expectSearchesAsBruteForce([[1, 2, 3, 4]], 5, 30);
    const empty = new BoxTree(new Float64Array(0), pacer);
    expect(found(empty, [-Infinity, -Infinity, Infinity, Infinity])).toEqual([]);
    expect(empty.search(0, 0, 1, 1, () => true)).toBe(false);
  });

  it('stops at the first item its visitor answers true for, and says so', () => {
    const list = Array.from({ length: 100 }, (_, i): Box => [i, 0, i + 1, 1]);
    const tree = new BoxTree(boxesOf(list), pacer);
    const seen: number[] = [];
    expect(tree.search(0, 0, 100, 1, (item) => seen.push(item) === 10)).toBe(true);
    expect(seen).toHaveLength(10);
    expect(tree.search(0, 0, 100, 1, () => false)).toBe(false);
  });

  it('is built in O(n log n) steps on centres ordered to defeat a pivot rule, counted by its pacer', () => {
    const count = 1 << 15;
    const orders: ((i: number) => number)[] = [
      (i) => (i < count / 2 ? i : count - i),
      (i) => i,
      (i) => (i % 2 === 0 ? i / 2 : count / 2 + i),
      (i) => (Math.abs(i - count / 2) < count / 16 ? count + i : i),
      () => 5,
    ];
    for (const order of orders) {
      const boxes = new Float64Array(4 * count);
      for (let i = 0; i < count; i++) boxes.set([order(i), order((i * 7) % count), order(i) + 2, order((i * 7) % count) + 2], 4 * i);
      const counting = new CountingPacer();
      new BoxTree(boxes, counting);
      // Some 4.5 n log n on these; a selection gone quadratic takes thousands.
      expect(counting.steps).toBeLessThan(8 * count * Math.log2(count));
    }
  });

  it('is paced by the pacer it is given, which can stop it', () => {
    const list = Array.from({ length: 100 }, (_, i): Box => [i, 0, i, 0]);
    const tree = new BoxTree(boxesOf(list), pacer);
    let stopped = false;
    const stopping = new StepPacer(() => {
      if (stopped) throw new Error('stopped');
    });
    stopping.step(STEPS_PER_CHECKPOINT - 1);
    stopped = true;
    expect(() => tree.search(-Infinity, -Infinity, Infinity, Infinity, () => undefined, stopping)).toThrow('stopped');
  });
});
