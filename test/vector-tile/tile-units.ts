/**
 * What the vector-tile tests share: shapes placed in a tile's own units (and so predictable to
 * the unit once encoded), and tiles decoded as MapLibre decodes them (@mapbox/vector-tile).
 */
import { VectorTileLayer, type VectorTileFeature } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { linesShape, pointsShape, polygonsShape, type Shape } from '../../src/geometry/shape.ts';
import { tileBox, type TileAddress } from '../../src/projection/tile-address.ts';

/** Web Mercator metres of tile units (ux, uy) of `tile` (y down from its top edge). */
export function metresOf(tile: TileAddress, points: number[][]): number[] {
  const box = tileBox(tile);
  const unit = (box.xmax - box.xmin) / 4096;
  return points.flatMap(([ux, uy]) => [box.xmin + ux * unit, box.ymax - uy * unit]);
}

export function unitPoints(tile: TileAddress, points: number[][]): Shape {
  return pointsShape(Float64Array.from(metresOf(tile, points)));
}

export function unitLines(tile: TileAddress, lines: number[][][]): Shape {
  return linesShape(Float64Array.from(lines.flatMap((line) => metresOf(tile, line))), partStarts(lines));
}

/** Polygons, each its outer ring then its holes. */
export function unitPolygons(tile: TileAddress, polygons: number[][][][]): Shape {
  const rings = polygons.flat();
  const starts = [0];
  for (const polygon of polygons) starts.push(starts[starts.length - 1] + polygon.length);
  return polygonsShape(Float64Array.from(rings.flatMap((ring) => metresOf(tile, ring))), partStarts(rings), Uint32Array.from(starts));
}

function partStarts(parts: number[][][]): Uint32Array {
  const starts = [0];
  for (const part of parts) starts.push(starts[starts.length - 1] + part.length);
  return Uint32Array.from(starts);
}

/**
 * Every layer of the tile, empty ones included (VectorTile, MapLibre's reader, lists only
 * layers with features).
 */
export function layersOf(bytes: Uint8Array): VectorTileLayer[] {
  const layers: VectorTileLayer[] = [];
  new PbfReader(bytes).readFields((tag, _, pbf) => {
    if (tag === 3) layers.push(new VectorTileLayer(pbf!, pbf!.readVarint() + pbf!.pos));
  }, undefined);
  return layers;
}

/** The features of the tile's one layer, which must be `name`. */
export function decodedFeatures(bytes: Uint8Array, name: string): VectorTileFeature[] {
  const layers = layersOf(bytes);
  if (layers.length !== 1 || layers[0].name !== name) throw new Error(`the tile's layers are [${layers.map((layer) => layer.name)}], not ['${name}']`);
  const [layer] = layers;
  return Array.from({ length: layer.length }, (_, i) => layer.feature(i));
}

/** A feature's geometry as plain [x, y] lists, one per part. */
export function partsOf(feature: VectorTileFeature): number[][][] {
  return feature.loadGeometry().map((part) => part.map(({ x, y }) => [x, y]));
}

/** Signed area by the surveyor's formula, in tile units (positive: clockwise on the tile). */
export function surveyorArea(ring: number[][]): number {
  let twice = 0;
  for (let i = 0; i < ring.length - 1; i++) twice += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
  return twice / 2;
}
