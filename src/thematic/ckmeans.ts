/**
 * Optimal classes of weighted points on a line: Ckmeans.1d.dp (Wang & Song 2011), the exact
 * form of Jenks' natural breaks that `classify=jenks` promises (docs/decisions.md, "Thematic
 * styling"). simple-statistics' `ckmeans` is the model, but it takes one point per value and
 * holds two classes × values matrices of JS numbers; here a point carries a count, a sum and a
 * sum of squares, so that a field's distinct values (or bins of adjacent values, jenks.ts) are
 * clustered with the cost of the values they stand for, and only the class starts are kept
 * per class and point (one Int32Array), the costs two rows of Float64Array.
 *
 * The within-class squared deviation of any run of points comes from prefix sums in O(1). Each
 * row of the dynamic programme (one more class) is filled by divide and conquer over the
 * monotone position of the last class's start, O(points · log points) a row, which is exact
 * because that cost satisfies the quadrangle inequality.
 */

/** Points in ascending order; the sums are of the values' deviations from one shared centre, which keeps the squares small. */
export interface WeightedPoints {
  readonly length: number;
  /** How many values each point stands for (at least one). */
  readonly count: Float64Array;
  /** The sum of their deviations from the centre. */
  readonly sum: Float64Array;
  /** The sum of their squared deviations from the centre. */
  readonly sumOfSquares: Float64Array;
  /** The largest value each stands for: what a class ending at the point reports as its break. */
  readonly largest: Float64Array;
}

/**
 * The least total within-class squared deviation partition of `points` into `classes` runs
 * (fewer when there are fewer points): the index of each run's last point, ascending. The same
 * points give the same runs on every machine: only +, −, × and ÷, in a fixed order.
 */
export function optimalClassEnds(points: WeightedPoints, classes: number): number[] {
  const size = points.length;
  const rows = Math.min(classes, size);
  if (rows < 1) return [];
  const counts = prefixSums(points.count);
  const sums = prefixSums(points.sum);
  const squares = prefixSums(points.sumOfSquares);
  // Only the last row's and the one before's costs are read: two rows, not classes × points.
  let previous = new Float64Array(size);
  let current = new Float64Array(size);
  // starts[row * size + i]: where the last class starts in the best split of points 0…i into row + 1 classes.
  const starts = new Int32Array(rows * size);
  for (let i = 0; i < size; i++) previous[i] = squaredDeviation(counts[i + 1], sums[i + 1], squares[i + 1]);

  for (let row = 1; row < rows; row++) {
    const rowStarts = starts.subarray(row * size, (row + 1) * size);
    const previousStarts = starts.subarray((row - 1) * size, row * size);
    const fill = (firstEnd: number, lastEnd: number, lowestStart: number, highestStart: number): void => {
      if (firstEnd > lastEnd) return;
      const end = (firstEnd + lastEnd) >>> 1;
      const high = Math.min(highestStart, end);
      // The last class starts no earlier than with one class fewer (Knuth–Yao monotonicity), as simple-statistics bounds it.
      const low = Math.min(Math.max(lowestStart, previousStarts[end], row), high);
      let best = Infinity;
      let bestStart = high;
      for (let start = high; start >= low; start--) {
        const last = squaredDeviation(counts[end + 1] - counts[start], sums[end + 1] - sums[start], squares[end + 1] - squares[start]);
        // Earlier starts only make the last class costlier, and the rest costs at least previous[low − 1].
        if (last + previous[low - 1] >= best) break;
        const cost = last + previous[start - 1];
        if (cost < best) {
          best = cost;
          bestStart = start;
        }
      }
      current[end] = best;
      rowStarts[end] = bestStart;
      fill(firstEnd, end - 1, lowestStart, bestStart);
      fill(end + 1, lastEnd, bestStart, highestStart);
    };
    // The last row is read at the last point only.
    fill(row === rows - 1 ? size - 1 : row, size - 1, row, size - 1);
    [previous, current] = [current, previous];
  }

  const ends: number[] = [];
  for (let row = rows - 1, end = size - 1; row >= 0; row--) {
    ends.push(end);
    end = starts[row * size + end] - 1;
  }
  return ends.reverse();
}

/** The squared deviation from their mean of `count` values of this sum and sum of squares. */
function squaredDeviation(count: number, sum: number, sumOfSquares: number): number {
  // Rounding can leave a class of equal values a hair below zero.
  return Math.max(0, sumOfSquares - (sum * sum) / count);
}

function prefixSums(values: Float64Array): Float64Array {
  const prefix = new Float64Array(values.length + 1);
  for (let i = 0; i < values.length; i++) prefix[i + 1] = prefix[i] + values[i];
  return prefix;
}
