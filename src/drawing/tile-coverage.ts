/**
 * A tile past its budgets (docs/tiles.md, "Budgets"), drawn from the spatial index alone: each
 * feature reduced to the pixels its bounding box covers, no record read. What it costs is
 * bounded by the features' count and the tile's pixels, whatever the features hold; and a
 * tile with features is never blank. A PNG paints the covered pixels in the style's outline
 * colour (at a zoom where features are this dense, their outlines are what a map shows of
 * them); a vector tile holds one feature of the covered pixels' runs, without id or fields.
 */
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import { StepPacer } from '../cancellation/checkpoint.ts';
import { polygonsShape } from '../geometry/shape.ts';
import type { BBox } from '../geometry/types.ts';
import type { ToMercator } from '../map/reproject.ts';
import { tileBox, tileSpan, type TileAddress } from '../projection/tile-address.ts';
import type { TileFormat } from '../params/tiles.ts';
import { TILE_SIZE } from '../projection/web-mercator.ts';
import { encodeImage } from '../raster/rasterize.ts';
import type { OpenShapefile } from '../shapefile/file-set.ts';
import type { DrawStyle, Rgba } from '../svg/style.ts';
import { encodeVectorTile } from '../vector-tile/encode.ts';

interface CoverageOf {
  shapefile: OpenShapefile;
  toMercator: ToMercator;
  job: { tile: TileAddress; format: TileFormat; pixelRatio: number; style: DrawStyle };
  checkpoint: Checkpoint;
  compressionLevel?: number;
}

/** The tile's bytes from the features' boxes, in the file's units. */
export function coverageTile(boxes: Iterable<BBox>, { shapefile, toMercator, job, checkpoint, compressionLevel = 2 }: CoverageOf): Uint8Array {
  const side = job.format === 'png' ? TILE_SIZE * job.pixelRatio : TILE_SIZE;
  const covered = coveredCells(boxes, side, toMercator, job.tile, checkpoint);
  if (job.format === 'png') {
    const colour = job.style.lineWidth > 0 ? job.style.lineColor : job.style.fillColor;
    return encodeImage(paintCells(covered, side, colour), { width: side, height: side, compressionLevel });
  }
  return encodeVectorTile(shapefile.name, job.tile, [{ shape: runsShape(covered, side, job.tile), properties: {} }], checkpoint);
}

/** Which of the tile's side × side cells the boxes cover (1) and which not (0), row by row from the top. */
export function coveredCells(boxes: Iterable<BBox>, side: number, toMercator: ToMercator, tile: TileAddress, checkpoint: Checkpoint): Uint8Array {
  const cells = new Uint8Array(side * side);
  const box = tileBox(tile);
  const perMetre = side / tileSpan(tile.z);
  const corners = new Float64Array(8);
  const pacer = new StepPacer(checkpoint);
  for (const { xmin: minX, ymin: minY, xmax: maxX, ymax: maxY } of boxes) {
    pacer.step(4);
    toMercator(minX, minY, corners, 0);
    toMercator(maxX, minY, corners, 2);
    toMercator(minX, maxY, corners, 4);
    toMercator(maxX, maxY, corners, 6);
    const xs = [corners[0], corners[2], corners[4], corners[6]];
    const ys = [corners[1], corners[3], corners[5], corners[7]];
    if (![...xs, ...ys].every(Number.isFinite)) continue;
    // Every box covers at least the cell it is in; one wholly beside the tile (found by the
    // search's margin for strokes) covers none of it.
    const left = Math.floor((Math.min(...xs) - box.xmin) * perMetre);
    const right = Math.floor((Math.max(...xs) - box.xmin) * perMetre);
    const top = Math.floor((box.ymax - Math.max(...ys)) * perMetre);
    const bottom = Math.floor((box.ymax - Math.min(...ys)) * perMetre);
    if (right < 0 || left >= side || bottom < 0 || top >= side) continue;
    const [first, last, firstRow, lastRow] = [Math.max(0, left), Math.min(side - 1, right), Math.max(0, top), Math.min(side - 1, bottom)];
    for (let row = firstRow; row <= lastRow; row++) cells.fill(1, row * side + first, row * side + last + 1);
    pacer.step((lastRow - firstRow + 1) * (last - first + 1));
  }
  return cells;
}

/** The covered cells in `colour`, as premultiplied RGBA. */
function paintCells(cells: Uint8Array, side: number, { r, g, b, a }: Rgba): Uint8Array {
  const pixels = new Uint8Array(side * side * 4);
  const alpha = Math.round(a * 255);
  const premultiplied = [r, g, b].map((channel) => Math.round((channel * alpha) / 255));
  for (let cell = 0; cell < cells.length; cell++) {
    if (!cells[cell]) continue;
    pixels.set([premultiplied[0], premultiplied[1], premultiplied[2], alpha], cell * 4);
  }
  return pixels;
}

/** The covered cells' runs along each row, as one shape of rectangles in Web Mercator metres. */
function runsShape(cells: Uint8Array, side: number, tile: TileAddress) {
  const box = tileBox(tile);
  const metres = tileSpan(tile.z) / side;
  const xy: number[] = [];
  for (let row = 0; row < side; row++) {
    const top = box.ymax - row * metres;
    for (let column = 0; column < side; column++) {
      if (!cells[row * side + column]) continue;
      const first = column;
      while (column + 1 < side && cells[row * side + column + 1]) column++;
      const [left, right, bottom] = [box.xmin + first * metres, box.xmin + (column + 1) * metres, top - metres];
      // Clockwise on the map (y up): a shapefile's outer ring.
      xy.push(left, bottom, left, top, right, top, right, bottom, left, bottom);
    }
  }
  const rings = xy.length / 10;
  const parts = Uint32Array.from({ length: rings + 1 }, (_, ring) => ring * 5);
  return polygonsShape(Float64Array.from(xy), parts, Uint32Array.from({ length: rings + 1 }, (_, ring) => ring));
}
