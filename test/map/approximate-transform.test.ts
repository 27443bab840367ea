/**
 * The approximated transform a tile reprojects through (docs/tiles.md, "Reprojection"): within
 * its tolerance of proj4's exact transform, over RD New (a datum shift through geocentric
 * coordinates), at the zooms tiles are drawn at; exact outside its box and where no grid holds.
 */
import { describe, expect, it } from 'vitest';
import { approximatedWithin } from '../../src/map/approximate-transform.ts';
import { mercatorBoxToFile, mercatorTransform } from '../../src/map/reproject.ts';
import { tileBox, tileSpan } from '../../src/projection/tile-address.ts';
import { crsFromPrj } from '../../src/shapefile/crs.ts';
import { RD_NEW_PRJ } from '../support/fixtures.ts';
import { tileAt } from '../support/tiles.ts';

const NETHERLANDS = { xmin: 0, ymin: 300_000, xmax: 300_000, ymax: 620_000 };
const { crs } = crsFromPrj(RD_NEW_PRJ, NETHERLANDS);
const exact = mercatorTransform(crs, 'rd');

/** A deterministic spread of points over the box. */
function* pointsIn(box: { xmin: number; ymin: number; xmax: number; ymax: number }, count: number) {
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < count; i++) yield [box.xmin + random() * (box.xmax - box.xmin), box.ymin + random() * (box.ymax - box.ymin)] as const;
}

describe('a transform approximated over a box', () => {
  it.each([
    [6, 'the exact transform itself: no grid of 32 cells a side holds over 3 × 600 km'],
    [10, 'an approximation'],
    [14, 'an approximation'],
    [18, 'an approximation'],
  ])('strays less than its tolerance from the exact transform over a zoom %i tile and its neighbours, being %s', (z, being) => {
    const tile = tileAt(5.1, 52.1, z);
    const inFile = mercatorBoxToFile(tileBox(tile), crs)!;
    const margin = Math.max(inFile.xmax - inFile.xmin, inFile.ymax - inFile.ymin);
    const box = { xmin: inFile.xmin - margin, ymin: inFile.ymin - margin, xmax: inFile.xmax + margin, ymax: inFile.ymax + margin };
    const tolerance = tileSpan(z) / 4096 / 2;
    const approximate = approximatedWithin(exact, box, tolerance);
    const [want, got] = [new Float64Array(2), new Float64Array(2)];
    let worst = 0;
    for (const [x, y] of pointsIn(box, 20_000)) {
      exact(x, y, want, 0);
      approximate(x, y, got, 0);
      worst = Math.max(worst, Math.hypot(want[0] - got[0], want[1] - got[1]));
    }
    // Checked halfway between nodes, where bilinear error peaks; between those points a little more is allowed.
    expect(worst).toBeLessThanOrEqual(1.5 * tolerance);
    expect(approximate === exact).toBe(being.startsWith('the exact'));
  });

  it('is exact outside its box, and is the exact transform where the grid cannot be placed', () => {
    const box = { xmin: 100_000, ymin: 400_000, xmax: 110_000, ymax: 410_000 };
    const approximate = approximatedWithin(exact, box, 0.01);
    const [want, got] = [new Float64Array(2), new Float64Array(2)];
    exact(200_000, 500_000, want, 0);
    approximate(200_000, 500_000, got, 0);
    expect(Array.from(got)).toEqual(Array.from(want));
    // A box whose corner lies where proj4 answers no number.
    expect(approximatedWithin(exact, { xmin: 0, ymin: 0, xmax: 1e12, ymax: 1e12 }, 0.01)).toBe(exact);
    // A box of no area.
    expect(approximatedWithin(exact, { xmin: 1, ymin: 1, xmax: 1, ymax: 5 }, 0.01)).toBe(exact);
  });
});
