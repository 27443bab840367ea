/**
 * A transform into Web Mercator approximated over a box, as GDAL's warper approximates its
 * transformer (within an eighth of a pixel by default): the exact transform (proj4, a datum
 * shift through geocentric coordinates: microseconds a vertex) is taken at the nodes of a
 * grid over the box, and a vertex inside is placed by bilinear interpolation between them
 * (nanoseconds). The grid is refined until the interpolation strays less than the tolerance
 * from the exact transform halfway between its nodes (cells' centres and edges' middles),
 * where a smooth transform's bilinear error is largest; a vertex outside the box, or a box the grid cannot bring within the tolerance,
 * is transformed exactly. A tile's vertices are mostly near the tile: most take the fast path.
 */
import type { BBox } from '../geometry/types.ts';
import type { ToMercator } from './reproject.ts';

/** Cells a side the grid starts with, and most it is refined to: at most ~5,000 exact transforms in all, a tile's worth of vertices. */
const FIRST_CELLS = 8;
const MOST_CELLS = 32;

/** `exact` within `tolerance` metres over `box` (file units), by a grid of exact transforms; `exact` itself where no grid holds. */
export function approximatedWithin(exact: ToMercator, box: BBox, tolerance: number): ToMercator {
  const width = box.xmax - box.xmin;
  const height = box.ymax - box.ymin;
  if (!(width > 0 && height > 0) || ![box.xmin, box.ymin, box.xmax, box.ymax].every(Number.isFinite)) return exact;
  for (let cells = FIRST_CELLS; cells <= MOST_CELLS; cells *= 2) {
    const nodes = gridNodes(exact, box, cells);
    if (!nodes) return exact;
    const interpolate = interpolator(nodes, box, cells);
    if (withinTolerance(exact, interpolate, box, cells, tolerance)) {
      return (x, y, out, at) => {
        if (x >= box.xmin && x <= box.xmax && y >= box.ymin && y <= box.ymax) interpolate(x, y, out, at);
        else exact(x, y, out, at);
      };
    }
  }
  return exact;
}

/** The exact transform of the (cells + 1)² grid nodes, row by row from ymin; undefined if one is not finite (the box leaves the CRS's area). */
function gridNodes(exact: ToMercator, box: BBox, cells: number): Float64Array | undefined {
  const nodes = new Float64Array(2 * (cells + 1) ** 2);
  for (let row = 0; row <= cells; row++) {
    for (let column = 0; column <= cells; column++) {
      const at = 2 * (row * (cells + 1) + column);
      exact(box.xmin + ((box.xmax - box.xmin) * column) / cells, box.ymin + ((box.ymax - box.ymin) * row) / cells, nodes, at);
      if (!Number.isFinite(nodes[at]) || !Number.isFinite(nodes[at + 1])) return undefined;
    }
  }
  return nodes;
}

/** Bilinear interpolation between the grid's nodes, for a point inside the box. */
function interpolator(nodes: Float64Array, box: BBox, cells: number): ToMercator {
  const columnsPerUnit = cells / (box.xmax - box.xmin);
  const rowsPerUnit = cells / (box.ymax - box.ymin);
  const stride = 2 * (cells + 1);
  return (x, y, out, at) => {
    const u = (x - box.xmin) * columnsPerUnit;
    const v = (y - box.ymin) * rowsPerUnit;
    const column = Math.min(cells - 1, Math.floor(u));
    const row = Math.min(cells - 1, Math.floor(v));
    const fu = u - column;
    const fv = v - row;
    const a = row * stride + 2 * column;
    const b = a + stride;
    for (let axis = 0; axis < 2; axis++) {
      const below = nodes[a + axis] + (nodes[a + 2 + axis] - nodes[a + axis]) * fu;
      const above = nodes[b + axis] + (nodes[b + 2 + axis] - nodes[b + axis]) * fu;
      out[at + axis] = below + (above - below) * fv;
    }
  };
}

/**
 * Whether the interpolation is within `tolerance` of the exact transform halfway between
 * nodes: at every cell's centre and at the middle of every cell's edges.
 */
function withinTolerance(exact: ToMercator, interpolate: ToMercator, box: BBox, cells: number, tolerance: number): boolean {
  const exactAt = new Float64Array(2);
  const approximateAt = new Float64Array(2);
  for (let row = 0; row <= 2 * cells; row++) {
    for (let column = row % 2 === 0 ? 1 : 0; column <= 2 * cells; column += row % 2 === 0 ? 2 : 1) {
      const x = box.xmin + ((box.xmax - box.xmin) * column) / (2 * cells);
      const y = box.ymin + ((box.ymax - box.ymin) * row) / (2 * cells);
      exact(x, y, exactAt, 0);
      interpolate(x, y, approximateAt, 0);
      if (!(Math.hypot(exactAt[0] - approximateAt[0], exactAt[1] - approximateAt[1]) <= tolerance)) return false;
    }
  }
  return true;
}
