import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { assembleRings, type RingAssembly } from '../../src/geometry/rings/index.ts';
import { STEPS_PER_CHECKPOINT } from '../../src/cancellation/checkpoint.ts';
import { readPolygonRecords } from '../support/shp-rings.ts';

const FIXTURES = fileURLToPath(new URL('../fixtures/rings/', import.meta.url));

/** test/fixtures/rings/reference.json, written by scripts/gdal-reference/rings.py from ogrinfo's output. */
interface Reference {
  gdal: string;
  files: Record<string, { features: ReferenceFeature[] }>;
}

interface ReferenceFeature {
  fid: number;
  name: string;
  rings: number;
  /** GDAL's polygons in its order, each as ring indices, outer ring first. */
  polygons: number[][];
  /** Groups of rings with identical coordinates: GDAL's output cannot tell them apart. */
  identical: number[][];
}

const reference = JSON.parse(readFileSync(`${FIXTURES}reference.json`, 'utf8')) as Reference;

function polygonsOf({ order, polygonStarts }: RingAssembly): number[][] {
  const polygons: number[][] = [];
  for (let p = 0; p + 1 < polygonStarts.length; p++) polygons.push([...order.subarray(polygonStarts[p], polygonStarts[p + 1])]);
  return polygons;
}

/** The polygons with every ring replaced by the first ring identical to it. */
function upToIdenticalRings(polygons: number[][], identical: number[][]): number[][] {
  const representative = new Map(identical.flatMap((group) => group.map((ring) => [ring, group[0]] as const)));
  return polygons.map((polygon) => polygon.map((ring) => representative.get(ring) ?? ring));
}

describe(`assembleRings organizes rings as ${reference.gdal} does`, () => {
  const cases = Object.entries(reference.files).flatMap(([file, { features }]) => {
    const records = readPolygonRecords(`${FIXTURES}${file}`);
    return features.map((feature) => ({ file, ...feature, record: records[feature.fid] }));
  });

  it.each(cases)('$file #$fid: $name', ({ record, rings, polygons, identical }) => {
    expect(record.ringStarts.length - 1).toBe(rings);
    const assembly = assembleRings(record.xy, record.ringStarts);
    expect(upToIdenticalRings(polygonsOf(assembly), identical)).toEqual(upToIdenticalRings(polygons, identical));
  });
});

/** Builds a record's typed arrays ring by ring. */
class RecordWriter {
  private xy = new Float64Array(64);
  private ringStarts = new Uint32Array(8);
  private vertices = 0;
  private rings = 0;

  ring(...points: [number, number][]): this {
    this.startRing();
    for (const [x, y] of points) this.vertex(x, y);
    return this;
  }

  /** An axis-aligned rectangle, closed, clockwise (an outer ring) or counter-clockwise (a hole). */
  rectangle(x0: number, y0: number, x1: number, y1: number, clockwise: boolean): this {
    const corners: [number, number][] = [[x0, y0], [x0, y1], [x1, y1], [x1, y0], [x0, y0]];
    return this.ring(...(clockwise ? corners : corners.reverse()));
  }

  /** A closed clockwise ring of `count` distinct vertices on a circle. */
  circle(cx: number, cy: number, radius: number, count: number): this {
    this.startRing();
    for (let k = 0; k <= count; k++) {
      const angle = (-2 * Math.PI * (k % count)) / count;
      this.vertex(cx + radius * Math.cos(angle), cy + radius * Math.sin(angle));
    }
    return this;
  }

  /** A closed clockwise comb: a band y = 0 … 10 with teeth up to y = 100, notches x = 4t + 2 … 4t + 3 between them. */
  comb(teeth: number): this {
    this.startRing();
    this.vertex(0, 0);
    this.vertex(0, 100);
    for (let t = 0; t < teeth; t++) {
      this.vertex(4 * t + 2, 100);
      this.vertex(4 * t + 2, 10);
      this.vertex(4 * t + 3, 10);
      this.vertex(4 * t + 3, 100);
    }
    this.vertex(4 * teeth, 100);
    this.vertex(4 * teeth, 0);
    this.vertex(0, 0);
    return this;
  }

  finish(): { xy: Float64Array; ringStarts: Uint32Array } {
    this.ringStarts[this.rings] = this.vertices;
    return { xy: this.xy.slice(0, 2 * this.vertices), ringStarts: this.ringStarts.slice(0, this.rings + 1) };
  }

  private startRing(): void {
    if (this.rings + 2 > this.ringStarts.length) this.ringStarts = grown(this.ringStarts);
    this.ringStarts[this.rings++] = this.vertices;
  }

  private vertex(x: number, y: number): void {
    if (2 * this.vertices + 2 > this.xy.length) this.xy = grown(this.xy);
    this.xy[2 * this.vertices] = x;
    this.xy[2 * this.vertices + 1] = y;
    this.vertices++;
  }
}

function grown<T extends Float64Array | Uint32Array>(array: T): T {
  const larger = new (array.constructor as new (length: number) => T)(2 * array.length);
  larger.set(array);
  return larger;
}

function assembled(writer: RecordWriter): number[][] {
  const { xy, ringStarts } = writer.finish();
  return polygonsOf(assembleRings(xy, ringStarts));
}

describe('assembleRings, by hand', () => {
  it('gives no polygon for no ring, and a lone ring as the only polygon whatever its winding', () => {
    expect(assembled(new RecordWriter())).toEqual([]);
    expect(assembled(new RecordWriter().rectangle(0, 0, 1, 1, false))).toEqual([[0]]);
    expect(assembled(new RecordWriter().ring([0, 0], [1, 1]))).toEqual([[0]]);
  });

  it('puts each hole in the smallest clockwise ring around it, holes in file order', () => {
    const writer = new RecordWriter()
      .rectangle(12, 12, 14, 14, false) // in the middle ring
      .rectangle(0, 0, 100, 100, true)
      .rectangle(50, 50, 60, 60, false) // in the big ring only
      .rectangle(10, 10, 40, 40, true) // overlaps nothing but lies in the big ring
      .rectangle(20, 20, 22, 22, false); // in the middle ring
    expect(assembled(writer)).toEqual([[1, 2], [3, 0, 4]]);
  });

  it('makes every island of an island-in-lake nesting a polygon, each lake a hole of the island around it', () => {
    const writer = new RecordWriter();
    for (let level = 0; level < 6; level++) writer.rectangle(level, level, 20 - level, 20 - level, level % 2 === 0);
    expect(assembled(writer)).toEqual([[0, 1], [2, 3], [4, 5]]);
  });

  it('makes a lone clockwise ring the outer ring of every other ring, even of those around it', () => {
    const writer = new RecordWriter()
      .rectangle(0, 0, 100, 100, false)
      .rectangle(200, 0, 300, 100, false)
      .rectangle(10, 10, 20, 20, true)
      .ring([50, 50], [60, 60]);
    expect(assembled(writer)).toEqual([[2, 0, 1, 3]]);
  });

  it('gives up organizing, one polygon per ring, when a ring has fewer than 4 vertices (an empty part among them)', () => {
    const degenerate = new RecordWriter()
      .rectangle(0, 0, 100, 100, true)
      .rectangle(10, 10, 20, 20, false)
      .rectangle(200, 0, 300, 100, true)
      .ring([50, 50], [60, 50], [50, 60]);
    expect(assembled(degenerate)).toEqual([[0], [1], [2], [3]]);
    const empty = new RecordWriter().rectangle(0, 0, 100, 100, true).rectangle(10, 10, 20, 20, false).ring().rectangle(200, 0, 300, 100, true);
    expect(assembled(empty)).toEqual([[0], [1], [2], [3]]);
  });
});

/** Runs assembleRings, counting checkpoint calls: each stands for STEPS_PER_CHECKPOINT steps of work. */
function withCheckpointCount(writer: RecordWriter): { polygons: number[][]; checkpoints: number; vertices: number } {
  const { xy, ringStarts } = writer.finish();
  let checkpoints = 0;
  const polygons = polygonsOf(assembleRings(xy, ringStarts, () => checkpoints++));
  return { polygons, checkpoints, vertices: xy.length / 2 };
}

/**
 * Records built to make a quadratic search show. The work is measured in checkpoint calls
 * (one per STEPS_PER_CHECKPOINT elementary steps), not in time: each case must stay within
 * a few passes over its vertices plus n log n in its rings (the comb: plus a path down an
 * edge index per hole), where comparing every hole with every outer ring, or every hole's
 * ray with every edge it crosses, would take hundreds of millions of steps. The bays are the
 * exception GDAL's rule makes: there it is the cost of each of its tests that is bounded.
 */
describe('assembleRings on hostile records', () => {
  /** Checkpoints in a near-linear run: 8 visits per vertex, and per ring 16 times its share of a sort. */
  function nearLinearCheckpoints(vertices: number, rings: number): number {
    return Math.ceil((8 * vertices + 16 * rings * Math.log2(rings)) / STEPS_PER_CHECKPOINT);
  }

  it('20,000 outer rings and 20,000 holes outside all of them: 40,000 polygons, each ring its own', () => {
    const writer = new RecordWriter();
    for (let i = 0; i < 20_000; i++) {
      const x = 3 * (i % 200);
      const y = 3 * Math.floor(i / 200);
      writer.rectangle(x, y, x + 1, y + 1, true).rectangle(x + 1.5, y + 1.5, x + 2.5, y + 2.5, false);
    }
    const { polygons, checkpoints, vertices } = withCheckpointCount(writer);
    expect(polygons).toHaveLength(40_000);
    expect(polygons.every((polygon) => polygon.length === 1)).toBe(true);
    expect(checkpoints).toBeLessThan(nearLinearCheckpoints(vertices, 40_000));
  });

  it('50,000 holes inside an outer ring of 1,000,000 vertices (itself inside a larger ring): all its holes', () => {
    const writer = new RecordWriter().rectangle(-2e6, -2e6, 2e6, 2e6, true).circle(0, 0, 1e6, 1_000_000);
    for (let i = 0; i < 50_000; i++) {
      const x = -500_000 + 4_000 * (i % 250);
      const y = -500_000 + 4_000 * Math.floor(i / 250);
      writer.rectangle(x, y, x + 2, y + 2, false);
    }
    const { polygons, checkpoints, vertices } = withCheckpointCount(writer);
    expect(polygons.map((polygon) => polygon.length)).toEqual([1, 50_001]);
    expect(polygons[1][0]).toBe(1);
    expect(checkpoints).toBeLessThan(nearLinearCheckpoints(vertices, 50_002));
  });

  it('100,000 tiny rings, half of them holes of the other half', () => {
    const writer = new RecordWriter();
    for (let i = 0; i < 50_000; i++) {
      const x = 2 * (i % 250);
      const y = 2 * Math.floor(i / 250);
      writer.rectangle(x, y, x + 1, y + 1, true).rectangle(x + 0.25, y + 0.25, x + 0.75, y + 0.75, false);
    }
    const { polygons, checkpoints, vertices } = withCheckpointCount(writer);
    expect(polygons).toHaveLength(50_000);
    expect(polygons.every(([outer, hole]) => hole === outer + 1)).toBe(true);
    expect(checkpoints).toBeLessThan(nearLinearCheckpoints(vertices, 100_000));
  });

  it('a 20,000-level island-in-lake nesting, each lake on its island\'s left side: 10,000 islands, each with its lake', () => {
    // Every lake lies within the envelopes of all the islands around it, and its first vertex
    // on its own island's boundary: the search must stop at that island, after one walk.
    const writer = new RecordWriter();
    for (let level = 0; level < 20_000; level += 2) {
      writer.rectangle(level, level, 100_000 - level, 100_000 - level, true);
      writer.rectangle(level, level + 1, 100_000 - level - 1, 100_000 - level - 1, false);
    }
    const { polygons, checkpoints, vertices } = withCheckpointCount(writer);
    expect(polygons).toHaveLength(10_000);
    expect(polygons.every(([island, lake, ...others]) => lake === island + 1 && others.length === 0)).toBe(true);
    expect(checkpoints).toBeLessThan(nearLinearCheckpoints(vertices, 20_000));
  });

  it('50,000 outer rings whose envelopes all hold 50,000 holes: every hole goes to the smallest of them', () => {
    const writer = new RecordWriter();
    for (let k = 0; k < 50_000; k++) {
      // Ring 0 is exactly [-10, 10]², the others stretch it (at least one side each), so that it sorts last.
      writer.rectangle(-10 - (k % 223), -10 - ((7 * k) % 211), 10 + ((13 * k) % 197), 10 + Math.floor(k / 223), true);
      const x = -9 + (18 * ((7_919 * k) % 1_000)) / 1_000;
      const y = -9 + (18 * ((104_729 * k) % 997)) / 997;
      writer.rectangle(x, y, x + 0.5, y + 0.5, false);
    }
    const { polygons, checkpoints, vertices } = withCheckpointCount(writer);
    expect(polygons).toHaveLength(50_000);
    expect(polygons[0]).toEqual(Array.from({ length: 50_001 }, (_, k) => (k === 0 ? 0 : 2 * k - 1)));
    expect(polygons.slice(1).every(([outer, ...holes]) => outer % 2 === 0 && holes.length === 0)).toBe(true);
    expect(checkpoints).toBeLessThan(nearLinearCheckpoints(vertices, 100_000));
  });

  it('50,000 outer rings whose envelopes hold each hole\'s lower-left corner but not the hole: every hole goes to the ring around them all', () => {
    const writer = new RecordWriter().rectangle(-1e6, -1e6, 1e6, 1e6, true);
    for (let k = 0; k < 50_000; k++) {
      const size = 10 + k;
      if (k % 2 === 0) writer.rectangle(-size, -size, 0.5, size, true);
      else writer.rectangle(-size, -size, size, 0.5, true);
      const x = (0.4 * (k % 100)) / 100;
      const y = (0.4 * Math.floor(k / 500)) / 100;
      writer.rectangle(x, y, x + 1, y + 1, false);
    }
    const { polygons, checkpoints, vertices } = withCheckpointCount(writer);
    expect(polygons).toHaveLength(50_001);
    expect(polygons[0]).toEqual(Array.from({ length: 50_001 }, (_, k) => 2 * k));
    expect(polygons.slice(1).every((polygon) => polygon.length === 1)).toBe(true);
    expect(checkpoints).toBeLessThan(nearLinearCheckpoints(vertices, 100_001));
  });

  it('50,000 outer rings of equal half-perimeter (no envelope holds another) and 50,000 holes a little larger: no hole has a candidate', () => {
    // Envelopes read as points (-minX, -minY, maxX, maxY) all lie on one hyperplane, and each
    // hole's just above it: the arrangement that makes an envelope search look at most
    // envelopes without finding one.
    let seed = 1;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const writer = new RecordWriter().rectangle(-1e4, -1e4, 1e4, 1e4, true);
    for (let k = 0; k < 50_000; k++) {
      const [x, y, width] = [20 * random(), 20 * random(), 1 + 98 * random()];
      writer.rectangle(x - width / 2, y - (100 - width) / 2, x + width / 2, y + (100 - width) / 2, true);
    }
    for (let k = 0; k < 49_999; k++) {
      const [x, y, width] = [20 * random(), 20 * random(), 1 + 98 * random()];
      const [x0, y0, x1, y1] = [x - width / 2, y - (100.5 - width) / 2, x + width / 2, y + (100.5 - width) / 2];
      writer.ring([x0, y0], [x1, y1 - 0.01], [x1, y1], [x0, y0]); // a thin counter-clockwise triangle along the diagonal
    }
    const { polygons, checkpoints, vertices } = withCheckpointCount(writer);
    expect(polygons).toHaveLength(50_001);
    expect(polygons[0]).toEqual([0, ...Array.from({ length: 49_999 }, (_, k) => 50_001 + k)]);
    expect(checkpoints).toBeLessThan(nearLinearCheckpoints(vertices, 100_000));
  });

  it('20,000 holes in the teeth of a 100,000-tooth comb: each hole\'s ray crosses every notch to its right, yet costs a few steps', () => {
    const writer = new RecordWriter().rectangle(-10, -10, 400_010, 110, true).comb(100_000);
    for (let h = 0; h < 20_000; h++) writer.rectangle(20 * h + 0.5, 50, 20 * h + 1.5, 51, false);
    const { polygons, checkpoints, vertices } = withCheckpointCount(writer);
    expect(polygons.map((polygon) => polygon.length)).toEqual([1, 20_001]);
    expect(polygons[1][0]).toBe(1);
    // A few passes over the vertices, then per hole a path down the comb's edge index and a run of its edges.
    expect(checkpoints).toBeLessThan(Math.ceil((8 * vertices + 400 * 20_000) / STEPS_PER_CHECKPOINT));
  });

  it('400 triangles whose envelopes hold 400 holes they do not contain: each hole tries every triangle, as in GDAL, a few steps each', () => {
    // GDAL's rule itself tests every candidate whose envelope holds the hole until one
    // contains it: this product is the rule's. What is guarded is the cost of each test.
    const writer = new RecordWriter().rectangle(-1e4, -1e4, 1e4, 1e4, true);
    for (let k = 0; k < 400; k++) {
      const a = 3 + k;
      writer.ring([-a - 1, -a - 1], [-a - 1, a - 1], [a - 1, -a - 1], [-a - 1, -a - 1]);
      const [x, y] = [(k % 20) / 20, Math.floor(k / 20) / 20];
      writer.rectangle(x, y, x + 0.04, y + 0.04, false);
    }
    const { polygons, checkpoints, vertices } = withCheckpointCount(writer);
    expect(polygons[0]).toEqual(Array.from({ length: 401 }, (_, k) => 2 * k));
    expect(polygons.slice(1).every((polygon) => polygon.length === 1)).toBe(true);
    const candidateTests = 400 * 400;
    expect(checkpoints).toBeLessThan(nearLinearCheckpoints(vertices, 801) + Math.ceil((32 * candidateTests) / STEPS_PER_CHECKPOINT));
  });
});

describe('assembleRings cancellation', () => {
  it('calls checkpoint as it works, and a throw from it stops the work', () => {
    const writer = new RecordWriter();
    for (let i = 0; i < 10_000; i++) writer.rectangle(3 * i, 0, 3 * i + 2, 2, true).rectangle(3 * i + 0.5, 0.5, 3 * i + 1, 1, false);
    const { xy, ringStarts } = writer.finish();
    let calls = 0;
    assembleRings(xy, ringStarts, () => calls++);
    const vertices = xy.length / 2;
    expect(calls).toBeGreaterThanOrEqual(Math.floor(vertices / STEPS_PER_CHECKPOINT));

    const stop = new Error('cancelled');
    let callsBeforeStop = 0;
    expect(() =>
      assembleRings(xy, ringStarts, () => {
        if (++callsBeforeStop === 3) throw stop;
      }),
    ).toThrow(stop);
    expect(callsBeforeStop).toBe(3);
  });
});
