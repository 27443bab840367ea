/**
 * jenksBreaks (docs/decisions.md, "Thematic styling": exact within the classification budget; past
 * it, the minimum, the maximum and the rare tail values always kept apart): our ckmeans against
 * simple-statistics' on random small inputs, and against every partition where there are few;
 * past the budget, bins that keep the extremes and the widely gapped values apart, and classes
 * on heavy-tailed fields within 1 % of the exact ones' squared deviation with the same outlier
 * groups, the exact ones computed by our own programme without a budget and, apart from our
 * code, by a numpy programme that tries every split (scripts/jenks-reference.py); and the
 * issue's own case through classifyValues.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { ckmeans } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { classifyValues } from '../../src/thematic/classify-values.ts';
import { JENKS_BUDGET, jenksBreaks } from '../../src/thematic/jenks.ts';
import { fcParameters } from '../support/fc-settings.ts';
import { seededRandom } from '../support/seeded-random.ts';

const RUNS = { simpleStatistics: 300, unique: 300, bins: 200 };
const params = <T,>(runs: number) => fcParameters<T>(runs, Math.max(...Object.values(RUNS)));
type Classified = [{ values: number[]; classes: number }];

/** No budget: every distinct value a point, the exact breaks. */
const EXACT = Number.POSITIVE_INFINITY;

const sortedOf = (values: readonly number[]) => Float64Array.from(values, (value) => value + 0).sort(); // + 0: -0 is 0, as classifyValues reads it

/** The values in each class (breaks[i − 1], breaks[i]]. */
function classesOf(sorted: Float64Array, breaks: readonly number[]): Float64Array[] {
  const classes: Float64Array[] = [];
  let first = 0;
  for (const bound of breaks) {
    let end = first;
    while (end < sorted.length && sorted[end] <= bound) end++;
    classes.push(sorted.subarray(first, end));
    first = end;
  }
  expect(first).toBe(sorted.length);
  return classes;
}

/** The total squared deviation of each class about its own mean, by two passes (no prefix sums, no shared centre). */
function withinClassDeviation(sorted: Float64Array, breaks: readonly number[]): number {
  let total = 0;
  for (const values of classesOf(sorted, breaks)) {
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    total += values.reduce((sum, value) => sum + (value - mean) ** 2, 0);
  }
  return total;
}

const distinctOf = (sorted: Float64Array) => [...new Set(sorted)];

/** simple-statistics' ckmeans as breaks: each cluster's last value. */
const simpleStatisticsBreaks = (sorted: Float64Array, classes: number) => ckmeans([...sorted], classes).map((cluster) => cluster[cluster.length - 1]);

/** `count` lognormal values (median e^7 ≈ 1100, σ 1.5: a long tail up to ~1e6), by Box–Muller. */
function lognormal(count: number, seed: number): number[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => Math.exp(7 + 1.5 * Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())));
}

/** The outliers: a handful between 2e7 and 1e8, in groups near and far from each other. */
const OUTLIERS = [2e7, 2.1e7, 2.15e7, 4.8e7, 5e7, 1e8];

/** Whether each pair of the outliers (and the largest value below them) shares a class: the outlier groups. */
function outlierGroups(sorted: Float64Array, breaks: readonly number[]): boolean[] {
  const bulkMax = sorted[sorted.length - OUTLIERS.length - 1];
  const classOf = (value: number) => breaks.findIndex((bound) => value <= bound);
  const marked = [bulkMax, ...OUTLIERS].map(classOf);
  return marked.flatMap((a, i) => marked.slice(i + 1).map((b) => a === b));
}

describe('exact ckmeans, within the budget', () => {
  const values = fc.oneof(
    fc.integer({ min: -20, max: 20 }), // many equal values: the counts matter
    fc.integer({ min: -1e9, max: 1e9 }),
    fc.double({ min: -1e6, max: 1e6, noNaN: true }),
  );
  const smallInput = fc
    .record({ values: fc.array(values, { minLength: 3, maxLength: 120 }), classes: fc.integer({ min: 2, max: 8 }) })
    .filter(({ values, classes }) => new Set(values.map((value) => value + 0)).size > classes);

  test.prop([smallInput], params<Classified>(RUNS.simpleStatistics))("leaves the least within-class squared deviation, as simple-statistics' ckmeans", ({ values, classes }) => {
    const sorted = sortedOf(values);
    const ours = jenksBreaks(sorted, classes);
    expect(ours).toHaveLength(classes);
    expect(ours.at(-1)).toBe(sorted.at(-1));
    const scale = withinClassDeviation(sorted, [sorted.at(-1)!]); // one class: the field's whole squared deviation
    expect(Math.abs(withinClassDeviation(sorted, ours) - withinClassDeviation(sorted, simpleStatisticsBreaks(sorted, classes)))).toBeLessThanOrEqual(1e-9 * scale);
  });

  /** Few distinct values, repeated: every partition into classes can be tried. */
  const fewDistinct = fc
    .record({
      pool: fc.uniqueArray(fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ min: -1e6, max: 1e6, noNaN: true })), { minLength: 3, maxLength: 12, selector: (value) => value + 0 }),
      picks: fc.array(fc.nat(), { minLength: 3, maxLength: 40 }),
      classes: fc.integer({ min: 2, max: 6 }),
    })
    .map(({ pool, picks, classes }) => ({ values: [...pool, ...picks.map((pick) => pool[pick % pool.length])], classes }))
    .filter(({ values, classes }) => new Set(values.map((value) => value + 0)).size > classes);

  test.prop([fewDistinct], params<Classified>(RUNS.unique))('gives the optimal breaks, those of simple-statistics, wherever the optimum is unique', ({ values, classes }) => {
    const sorted = sortedOf(values);
    const distinct = distinctOf(sorted);
    const costs = partitionsOf(distinct.length, classes)
      .map((ends) => ({ breaks: ends.map((end) => distinct[end]), cost: 0 }))
      .map((partition) => ({ ...partition, cost: withinClassDeviation(sorted, partition.breaks) }))
      .sort((a, b) => a.cost - b.cost);
    const scale = withinClassDeviation(sorted, [sorted.at(-1)!]);
    const ours = jenksBreaks(sorted, classes);
    expect(withinClassDeviation(sorted, ours) - costs[0].cost).toBeLessThanOrEqual(1e-9 * scale);
    if (costs[1].cost - costs[0].cost > 1e-9 * scale) {
      expect(ours).toEqual(costs[0].breaks);
      expect(simpleStatisticsBreaks(sorted, classes)).toEqual(costs[0].breaks);
    }
  });

  it("gives simple-statistics' own example ([[-1, -1, -1, -1], [2, 2, 2], [4, 5, 6]])", () => {
    expect(jenksBreaks(sortedOf([-1, 2, -1, 2, 4, 5, 6, -1, 2, -1]), 3)).toEqual([-1, 2, 6]);
  });

  it('gives fewer classes than asked when there are fewer distinct values, one each', () => {
    expect(jenksBreaks(sortedOf([5, 1, 5, 3]), 6)).toEqual([1, 3, 5]);
  });
});

/** Every way to cut `size` ordered points into `classes` non-empty runs, as the index of each run's last point. */
function partitionsOf(size: number, classes: number): number[][] {
  if (classes === 1) return [[size - 1]];
  const partitions: number[][] = [];
  for (let end = 0; end <= size - classes; end++) for (const rest of partitionsOf(size - end - 1, classes - 1)) partitions.push([end, ...rest.map((at) => at + end + 1)]);
  return partitions;
}

describe('past the budget', () => {
  // With as many classes as the budget, each bin is a class: the breaks show the bins.
  const binsOf = (sorted: Float64Array, budget: number) => jenksBreaks(sorted, budget, budget);

  const overBudget = fc
    .record({
      values: fc.array(fc.oneof(fc.integer({ min: -50, max: 50 }), fc.double({ min: -1e9, max: 1e9, noNaN: true })), { minLength: 2, maxLength: 300 }),
      budget: fc.integer({ min: 3, max: 40 }),
    })
    .filter(({ values, budget }) => new Set(values.map((value) => value + 0)).size > budget);

  test.prop([overBudget], params<[{ values: number[]; budget: number }]>(RUNS.bins))('bins are at most the budget, with the minimum, the maximum and every widely gapped value alone', ({ values, budget }) => {
    const sorted = sortedOf(values);
    const distinct = distinctOf(sorted);
    const bins = binsOf(sorted, budget);
    expect(bins.length).toBeLessThanOrEqual(budget);
    expect(bins.every((bound, i) => i === 0 || bound > bins[i - 1])).toBe(true);
    expect(bins[0]).toBe(distinct[0]);
    expect(bins.at(-2)).toBe(distinct.at(-2));
    expect(bins.at(-1)).toBe(distinct.at(-1));
    // Fewer than G gaps can be wider than (max − min) / G: each of them is a bin's edge.
    const widest = Math.floor((budget - 1) / 2);
    const wide = (distinct.at(-1)! - distinct[0]) / widest;
    for (let i = 1; i < distinct.length; i++) {
      if (distinct[i] - distinct[i - 1] > wide) expect(bins).toContain(distinct[i - 1]);
    }
  });

  it.each([5, 7, 12])('on 200,000 heavy-tailed values and six outliers in %i classes, with 1,000 or 10,000 bins, leave within 1 % of the exact squared deviation, with the same outlier groups', (classes) => {
    const sorted = sortedOf([...lognormal(200_000, classes), ...OUTLIERS]);
    const exact = jenksBreaks(sorted, classes, EXACT);
    for (const budget of [1000, 10_000]) {
      expect(distinctOf(sorted).length).toBeGreaterThan(budget);
      const binned = jenksBreaks(sorted, classes, budget);
      expect(binned).toHaveLength(classes);
      expect(withinClassDeviation(sorted, binned)).toBeLessThanOrEqual(1.01 * withinClassDeviation(sorted, exact));
      expect(outlierGroups(sorted, binned)).toEqual(outlierGroups(sorted, exact));
    }
  });

  it.each([5, 7, 12])('on 200,000 heavy-tailed values of three significant digits in %i classes: exact, the breaks numpy finds trying every split; with a tenth of the distinct values as bins, within 1 % of them', (classes) => {
    const threeDigits = (value: number) => Number(value.toPrecision(3));
    const sorted = sortedOf([...lognormal(200_000, 100 + classes).map(threeDigits), ...OUTLIERS]);
    const reference = numpyJenks(sorted, classes);
    const exact = jenksBreaks(sorted, classes, EXACT);
    expect(exact).toEqual(reference.breaks);
    expect(Math.abs(withinClassDeviation(sorted, exact) - reference.deviation)).toBeLessThanOrEqual(1e-9 * reference.deviation);

    const budget = Math.floor(distinctOf(sorted).length / 10);
    const binned = jenksBreaks(sorted, classes, budget);
    expect(withinClassDeviation(sorted, binned)).toBeLessThanOrEqual(1.01 * reference.deviation);
    expect(outlierGroups(sorted, binned)).toEqual(outlierGroups(sorted, reference.breaks));
  });
});

/** scripts/jenks-reference.py over the distinct values and their counts. */
function numpyJenks(sorted: Float64Array, classes: number): { breaks: number[]; deviation: number } {
  const counts = new Map<number, number>();
  for (const value of sorted) counts.set(value, (counts.get(value) ?? 0) + 1);
  const input = JSON.stringify({ values: [...counts.keys()], counts: [...counts.values()], classes });
  const output = execFileSync('python3', [join(import.meta.dirname, '../../scripts/jenks-reference.py')], { input, encoding: 'utf8' });
  return JSON.parse(output) as { breaks: number[]; deviation: number };
}

describe('classifyValues by jenks, past the budget (the issue: 1e8 merged with the values below it)', () => {
  it('keeps the maximum in a class of its own, and the other outliers as the exact breaks group them', () => {
    const values = [...lognormal(JENKS_BUDGET + 50_000, 28), ...OUTLIERS];
    const sorted = sortedOf(values);
    expect(distinctOf(sorted).length).toBeGreaterThan(JENKS_BUDGET);
    const exact = jenksBreaks(sorted, 7, EXACT);
    expect(exact.at(-2)).toBe(OUTLIERS.at(-2));
    const classes = classifyValues(values, { field: 'F', method: 'jenks', classes: 7, maxCategories: 24 });
    if (classes.kind !== 'numeric') throw new Error('numeric expected');
    expect(classes.breaks.slice(-2)).toEqual(OUTLIERS.slice(-2));
    expect(classes.counts.at(-1)).toBe(1);
    expect(outlierGroups(sorted, classes.breaks)).toEqual(outlierGroups(sorted, exact));
    expect(withinClassDeviation(sorted, classes.breaks)).toBeLessThanOrEqual(1.01 * withinClassDeviation(sorted, exact));
  });
});
