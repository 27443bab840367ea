/**
 * A tile past its budgets, drawn from the record boxes alone (docs/tiles.md, "Budgets"): each
 * box covers the cells it meets and no other, a box beside the tile none.
 */
import { describe, expect, it } from 'vitest';
import { noCheckpoint } from '../../src/cancellation/checkpoint.ts';
import { coveredCells } from '../../src/drawing/tile-coverage.ts';
import { tileBox, tileSpan } from '../../src/projection/tile-address.ts';

const TILE = { z: 10, x: 500, y: 300 };
const box = tileBox(TILE);
const cell = tileSpan(TILE.z) / 256;
/** Web Mercator metres are the file's own units here. */
const identity = (x: number, y: number, out: Float64Array, at: number) => void out.set([x, y], at);
/** The box of cells [column, row] to [column2, row2], shrunk a little inside them. */
const cellsBox = (column: number, row: number, column2 = column, row2 = row) => ({
  xmin: box.xmin + (column + 0.1) * cell,
  xmax: box.xmin + (column2 + 0.9) * cell,
  ymax: box.ymax - (row + 0.1) * cell,
  ymin: box.ymax - (row2 + 0.9) * cell,
});
const covered = (cells: Uint8Array) => [...cells.keys()].filter((i) => cells[i]).map((i) => [i % 256, Math.floor(i / 256)]);

describe('covered cells', () => {
  it('are those each box meets, clamped to the tile', () => {
    const cells = coveredCells([cellsBox(3, 4, 5, 4), cellsBox(254, 254, 300, 300)], 256, identity, TILE, noCheckpoint);
    expect(covered(cells)).toEqual([[3, 4], [4, 4], [5, 4], [254, 254], [255, 254], [254, 255], [255, 255]]);
  });

  it('leave out a box wholly above, below, left or right of the tile', () => {
    const beside = [cellsBox(10, -3, 20, -2), cellsBox(10, 257, 20, 258), cellsBox(-5, 10, -2, 20), cellsBox(257, 10, 260, 20)];
    expect(covered(coveredCells(beside, 256, identity, TILE, noCheckpoint))).toEqual([]);
  });
});
