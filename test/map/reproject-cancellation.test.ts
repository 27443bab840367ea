/**
 * Reprojection looks at the request's checkpoint every few thousand vertices, so that a
 * cancelled map or /ogc page stops inside a record of millions of vertices instead of
 * running on until the pool's watchdog replaces its worker. Counted, not timed: the
 * vertices transformed between two checkpoints, and where a throwing checkpoint stops it.
 */
import { describe, expect, it } from 'vitest';
import { linesShape } from '../../src/geometry/shape.ts';
import { mercatorTransform, reprojectShape } from '../../src/map/reproject.ts';
import { RD_NEW_PROJ4 } from '../../src/shapefile/crs.ts';

const VERTICES = 1_000_000;
/** Most vertices between two checkpoints: at a few microseconds a proj4 transform, well within 100 ms. */
const MOST_BETWEEN_CHECKPOINTS = 10_000;

/** A line of a million vertices around the RD New origin. */
function longLine() {
  const xy = new Float64Array(2 * VERTICES);
  for (let i = 0; i < VERTICES; i++) xy.set([155_000 + (i % 1000), 463_000 + i / 1000], 2 * i);
  return linesShape(xy, Uint32Array.of(0, VERTICES));
}

class Cancelled extends Error {}

describe('reprojecting a large record', () => {
  const toMercator = mercatorTransform({ geographic: false, proj4: RD_NEW_PROJ4 }, 'rd');

  it('looks at the checkpoint at least every 10,000 vertices', () => {
    let written = 0;
    const between: number[] = [];
    let last = 0;
    reprojectShape(
      longLine(),
      (x, y, out, at) => {
        written++;
        toMercator(x, y, out, at);
      },
      0,
      'rd.shp',
      () => {
        between.push(written - last);
        last = written;
      },
    );
    expect(written).toBe(VERTICES);
    expect(between.length).toBeGreaterThanOrEqual(VERTICES / MOST_BETWEEN_CHECKPOINTS - 1);
    expect(Math.max(...between, VERTICES - last)).toBeLessThanOrEqual(MOST_BETWEEN_CHECKPOINTS);
  });

  it('stops at the first checkpoint after the request is cancelled, leaving the rest of the record', () => {
    let written = 0;
    let cancelled = false;
    const reproject = () =>
      reprojectShape(
        longLine(),
        (x, y, out, at) => {
          written++;
          // The client leaves while the first vertices are transformed.
          if (written === 100) cancelled = true;
          toMercator(x, y, out, at);
        },
        0,
        'rd.shp',
        () => {
          if (cancelled) throw new Cancelled();
        },
      );
    expect(reproject).toThrow(Cancelled);
    expect(written).toBeLessThanOrEqual(MOST_BETWEEN_CHECKPOINTS);
  });
});
