/**
 * The embedded basemap keeps its projected shapes as flat parts: a polygon's rings, or a set of
 * lines, as one array of x, y pairs. A position takes 16 bytes there, where an array of its
 * own takes some 60 and is one more object for the garbage collector to copy: keeping the
 * world's half a million positions as arrays cost the first map a third of its time in
 * collection (`BENCH_ONLY=cold npm run bench`). GeoJSON is made from them only for a moment,
 * for d3 to clip or write a shape. The core keeps its shapes so too (src/geometry/shape.ts);
 * a plugin may import only the SDK, which lends it the core's box of such coordinates.
 */
import type { Position } from 'geojson';
import { shapesBBox } from '../../src/sdk/plugin.ts';
import type { Box } from './box.ts';

export interface FlatParts {
  /** x and y of every position, part after part. */
  xy: Float64Array;
  /** Where each part starts, as a position index; one more entry marks the end. */
  starts: Uint32Array;
}

/** Collects parts position by position, into arrays that grow as they fill. */
export class FlatPartsBuilder {
  private xy: Float64Array;
  private length = 0;
  private readonly starts: number[] = [0];

  /** `positions`: how many it will likely hold, so that a large one is not copied as it grows. */
  constructor(positions = 128) {
    this.xy = new Float64Array(2 * Math.max(1, positions));
  }

  push(x: number, y: number): void {
    if (this.length + 2 > this.xy.length) {
      const larger = new Float64Array(this.xy.length * 2);
      larger.set(this.xy);
      this.xy = larger;
    }
    this.xy[this.length++] = x;
    this.xy[this.length++] = y;
  }

  /** Ends the part in progress; one of fewer than `minPositions` is dropped. */
  endPart(minPositions = 1): void {
    const start = this.starts[this.starts.length - 1];
    if (this.length / 2 - start < minPositions) this.length = start * 2;
    else this.starts.push(this.length / 2);
  }

  /** Positions of the part in progress. */
  get partLength(): number {
    return this.length / 2 - this.starts[this.starts.length - 1];
  }

  /** The first position of the part in progress (when it has one). */
  partStart(): [number, number] {
    const start = this.starts[this.starts.length - 1] * 2;
    return [this.xy[start], this.xy[start + 1]];
  }

  done(): FlatParts {
    return { xy: this.xy.slice(0, this.length), starts: Uint32Array.from(this.starts) };
  }
}

export function partCount(flat: FlatParts): number {
  return flat.starts.length - 1;
}

export function positionCount(flat: FlatParts): number {
  return flat.starts[flat.starts.length - 1];
}

export function flatFromPositions(parts: readonly Position[][]): FlatParts {
  const builder = new FlatPartsBuilder();
  for (const part of parts) {
    for (const [x, y] of part) builder.push(x, y);
    builder.endPart();
  }
  return builder.done();
}

export function positionsOf(flat: FlatParts): Position[][] {
  const parts: Position[][] = [];
  for (let part = 0; part < partCount(flat); part++) {
    const positions: Position[] = [];
    for (let i = flat.starts[part]; i < flat.starts[part + 1]; i++) positions.push([flat.xy[2 * i], flat.xy[2 * i + 1]]);
    parts.push(positions);
  }
  return parts;
}

/** The box around every position; undefined when there is none. */
export function flatBox(flat: FlatParts): Box | undefined {
  return shapesBBox([flat]);
}
