/**
 * A Mapbox Vector Tile 2.1 of one layer as protobuf, written with pbf (docs/tiles.md, "Vector
 * tiles: geometry"). Not through vt-pbf: it writes every feature's tags field even when it is
 * empty, and GDAL 3.6's MVT driver then takes the file for another format (a tile of features
 * without attributes, the default, would not open); it throws on whole numbers of 2⁶⁴ and
 * beyond; and it makes an object of every vertex.
 */
import { PbfWriter } from 'pbf';
import type { AttributeValue } from '../shapefile/dbf.ts';
import type { TileGeometry } from './tile-geometry.ts';

export type LayerFeature = TileGeometry & {
  id?: number;
  properties: Readonly<Record<string, AttributeValue>>;
};

/** vector_tile.proto's field numbers. */
const TILE_LAYERS = 3;
const LAYER = { version: 15, name: 1, features: 2, keys: 3, values: 4, extent: 5 } as const;
const FEATURE = { id: 1, tags: 2, type: 3, geometry: 4 } as const;
const VALUE = { string: 1, double: 3, uint: 5, sint: 6, bool: 7 } as const;
const MOVE_TO = 1;
const LINE_TO = 2;
const CLOSE_PATH = 7;

/** MVT 2.1 is version 2 of the format. */
const MVT_VERSION = 2;

/** What a layer's features share: its keys and values, each written once and named by its index. */
interface Dictionary {
  keys: Map<string, number>;
  values: Map<string | number | boolean, number>;
}

export function encodeLayer(name: string, extent: number, features: readonly LayerFeature[]): Uint8Array {
  const pbf = new PbfWriter();
  pbf.writeMessage(TILE_LAYERS, writeLayer, { name, extent, features });
  return pbf.finish();
}

function writeLayer(layer: { name: string; extent: number; features: readonly LayerFeature[] }, pbf: PbfWriter): void {
  pbf.writeVarintField(LAYER.version, MVT_VERSION);
  pbf.writeStringField(LAYER.name, layer.name);
  pbf.writeVarintField(LAYER.extent, layer.extent);
  const dictionary: Dictionary = { keys: new Map(), values: new Map() };
  for (const feature of layer.features) pbf.writeMessage(LAYER.features, writeFeature(dictionary), feature);
  for (const key of dictionary.keys.keys()) pbf.writeStringField(LAYER.keys, key);
  for (const value of dictionary.values.keys()) pbf.writeMessage(LAYER.values, writeValue, value);
}

/** An empty tags field is left out, as GDAL wants (see above). MVT has no null: a null value is left out. */
function writeFeature(dictionary: Dictionary) {
  return (feature: LayerFeature, pbf: PbfWriter): void => {
    if (feature.id !== undefined) pbf.writeVarintField(FEATURE.id, feature.id);
    const tags: number[] = [];
    for (const [key, value] of Object.entries(feature.properties)) {
      if (value === null) continue;
      tags.push(indexIn(dictionary.keys, key), indexIn(dictionary.values, value));
    }
    pbf.writePackedVarint(FEATURE.tags, tags);
    pbf.writeVarintField(FEATURE.type, feature.type);
    pbf.writeMessage(FEATURE.geometry, writeGeometry, feature);
  };
}

function indexIn<T>(entries: Map<T, number>, entry: T): number {
  let index = entries.get(entry);
  if (index === undefined) entries.set(entry, (index = entries.size));
  return index;
}

/**
 * Whole numbers a double holds exactly are integers (sint when negative, uint else); every
 * other number, fractions and whole numbers past 2⁵³ alike, a double.
 */
function writeValue(value: string | number | boolean, pbf: PbfWriter): void {
  if (typeof value === 'string') pbf.writeStringField(VALUE.string, value);
  else if (typeof value === 'boolean') pbf.writeBooleanField(VALUE.bool, value);
  else if (!Number.isSafeInteger(value)) pbf.writeDoubleField(VALUE.double, value);
  else if (value < 0) pbf.writeSVarintField(VALUE.sint, value);
  else pbf.writeVarintField(VALUE.uint, value);
}

/**
 * MVT's commands with deltas from the cursor, which runs on from one part to the next: a
 * MultiPoint in one MoveTo; each line a MoveTo and a LineTo; each ring a MoveTo, a LineTo
 * and a ClosePath for its closing point.
 */
function writeGeometry({ type, geometry }: TileGeometry, pbf: PbfWriter): void {
  let x = 0;
  let y = 0;
  const writePoint = (point: readonly number[]) => {
    pbf.writeVarint(zigzag(point[0] - x));
    pbf.writeVarint(zigzag(point[1] - y));
    [x, y] = point;
  };
  if (type === 1) {
    pbf.writeVarint(command(MOVE_TO, geometry.length));
    for (const point of geometry) writePoint(point);
    return;
  }
  for (const path of geometry) {
    const end = type === 3 ? path.length - 1 : path.length;
    pbf.writeVarint(command(MOVE_TO, 1));
    writePoint(path[0]);
    pbf.writeVarint(command(LINE_TO, end - 1));
    for (let i = 1; i < end; i++) writePoint(path[i]);
    if (type === 3) pbf.writeVarint(command(CLOSE_PATH, 1));
  }
}

function command(id: number, count: number): number {
  return (count << 3) | id;
}

function zigzag(n: number): number {
  return (n << 1) ^ (n >> 31);
}
