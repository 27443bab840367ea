/**
 * One vector tile, encoded and decoded as MapLibre decodes it (docs/tiles.md, "Vector tiles:
 * geometry"): shapes placed in the tile's own units, so that every clipped, rounded and
 * rewound coordinate is known to the unit.
 */
import { describe, expect, it } from 'vitest';
import { noCheckpoint } from '../../src/cancellation/checkpoint.ts';
import { polygonsShape } from '../../src/geometry/shape.ts';
import { encodeVectorTile } from '../../src/vector-tile/encode.ts';
import { decodedFeatures, layersOf, metresOf, partsOf, surveyorArea, unitLines, unitPoints, unitPolygons } from './tile-units.ts';

const TILE = { z: 6, x: 36, y: 37 };
const LAYER = 'parcels';

function encodeOne(shape: ReturnType<typeof unitLines>, properties = {}) {
  return decodedFeatures(encodeVectorTile(LAYER, TILE, [{ id: 7, shape, properties }], noCheckpoint), LAYER);
}

describe('a vector tile', () => {
  it('is MVT version 2 with extent 4096, one layer named as asked, each feature with its id', () => {
    const bytes = encodeVectorTile(
      LAYER,
      TILE,
      [
        { id: 0, shape: unitPoints(TILE, [[10, 10]]), properties: {} },
        { id: 123456, shape: unitPoints(TILE, [[20, 20]]), properties: {} },
      ],
      noCheckpoint,
    );
    const features = decodedFeatures(bytes, LAYER);
    expect(features.map(({ id, extent }) => ({ id, extent }))).toEqual([
      { id: 0, extent: 4096 },
      { id: 123456, extent: 4096 },
    ]);
  });

  it('cuts a line into the pieces it leaves in the tile and its 64-unit buffer', () => {
    // In from the left, out at the right, back in from the right, out at the bottom, and a
    // last stretch wholly outside.
    const shape = unitLines(TILE, [
      [[-500, 1000], [5000, 1000], [5000, 3000], [2000, 3000], [2000, 5000], [3000, 6000]],
    ]);
    const [feature] = encodeOne(shape);
    expect(feature.type).toBe(2);
    expect(partsOf(feature)).toEqual([
      [[-64, 1000], [4160, 1000]],
      [[4160, 3000], [2000, 3000], [2000, 4160]],
    ]);
  });

  it('keeps a line inside the tile whole, its vertices on the grid and without repeats', () => {
    const [feature] = encodeOne(unitLines(TILE, [[[100.2, 100.4], [100.4, 100.2], [1000.6, 100], [1000.6, 2000.4]]]));
    expect(partsOf(feature)).toEqual([[[100, 100], [1001, 100], [1001, 2000]]]);
  });

  it('simplifies to one unit: a wiggle of less than a unit goes, one of two units stays', () => {
    const wiggly = Array.from({ length: 101 }, (_, i) => [100 + 30 * i, 2000 + (i % 2) * 0.8]);
    const [flat] = encodeOne(unitLines(TILE, [wiggly]));
    expect(partsOf(flat)).toEqual([[[100, 2000], [3100, 2000]]]);
    const zigzag = Array.from({ length: 101 }, (_, i) => [100 + 30 * i, 2000 + (i % 2) * 2]);
    const [kept] = encodeOne(unitLines(TILE, [zigzag]));
    expect(partsOf(kept)[0]).toHaveLength(101);
  });

  it('clips a polygon ring by ring, a hole across the edge kept with its polygon, and winds them as MVT 2.1 wants', () => {
    // The outer ring runs anticlockwise on the tile (negative area), the hole clockwise: both
    // the wrong way for MVT 2.1, so both must be turned round.
    const outer = [[-1000, 1000], [-1000, 3000], [2000, 3000], [2000, 1000], [-1000, 1000]];
    const hole = [[-200, 1800], [200, 1800], [200, 2200], [-200, 2200], [-200, 1800]];
    expect(surveyorArea(outer)).toBeLessThan(0);
    expect(surveyorArea(hole)).toBeGreaterThan(0);
    const [feature] = encodeOne(unitPolygons(TILE, [[outer, hole]]));
    expect(feature.type).toBe(3);
    const [exterior, interior] = partsOf(feature);
    expect(surveyorArea(exterior)).toBe(2064 * 2000);
    expect(surveyorArea(interior)).toBe(-264 * 400);
    expect(new Set(exterior.map(String))).toEqual(new Set(['-64,1000', '-64,3000', '2000,3000', '2000,1000']));
    expect(new Set(interior.map(String))).toEqual(new Set(['-64,1800', '-64,2200', '200,2200', '200,1800']));
    // As MapLibre and every GeoJSON reader get it: one polygon with its hole.
    const geojson = feature.toGeoJSON(TILE.x, TILE.y, TILE.z);
    expect(geojson.geometry.type).toBe('Polygon');
    expect((geojson.geometry as GeoJSON.Polygon).coordinates).toHaveLength(2);
  });

  it('keeps rings given the right way as they are', () => {
    const outer = [[100, 100], [1000, 100], [1000, 1000], [100, 1000], [100, 100]];
    const [feature] = encodeOne(unitPolygons(TILE, [[outer]]));
    expect(partsOf(feature)).toEqual([outer]);
  });

  it('keeps an outer ring that collapses on the grid as a unit square, leaves out a polygon outside with its holes, and a feature with nothing left', () => {
    const big = [[100, 100], [1000, 100], [1000, 1000], [100, 1000], [100, 100]];
    const speck = [[2000, 2000], [2000.3, 2000], [2000.3, 2000.3], [2000, 2000]];
    const flat = [[3000, 100], [3500, 100], [3200, 100], [3000, 100]];
    const outside = [[5000, 100], [6000, 100], [6000, 1000], [5000, 1000], [5000, 100]];
    const holeOfOutside = [[5200, 200], [5200, 300], [5300, 300], [5200, 200]];
    const [feature] = encodeOne(unitPolygons(TILE, [[big], [speck], [flat], [outside, holeOfOutside]]));
    const unitSquare = (x: number, y: number) => [[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1], [x, y]];
    // The speck and the flat ring are smaller than a unit: each keeps one, at its first point.
    expect(partsOf(feature)).toEqual([big, unitSquare(2000, 2000), unitSquare(3000, 100)]);
    const bytes = encodeVectorTile(LAYER, TILE, [{ id: 1, shape: unitPolygons(TILE, [[outside, holeOfOutside]]), properties: {} }], noCheckpoint);
    expect(decodedFeatures(bytes, LAYER)).toEqual([]);
  });

  it('keeps the points on or inside the buffered tile as one MultiPoint', () => {
    const points = [[-64, 100], [-65, 100], [2048, 2048], [4160, 4160], [4161, 0], [100, -64.4], [100, -64.6]];
    const [feature] = encodeOne(unitPoints(TILE, points));
    expect(feature.type).toBe(1);
    // One MoveTo of four points, which the reader gives as four parts of one point.
    expect(partsOf(feature).flat()).toEqual([[-64, 100], [2048, 2048], [4160, 4160], [100, -64]]);
    expect(feature.toGeoJSON(TILE.x, TILE.y, TILE.z).geometry.type).toBe('MultiPoint');
  });

  it('writes each property as its MVT type, leaving out nulls', () => {
    const properties = { NAME: 'Zuid-Afrika', COUNT: 3, BELOW: -4, SHARE: 2.5, LANDLOCKED: false, FOUNDED: '1910-05-31', EMPTY: null, HUGE: 1e20 };
    const [feature] = encodeOne(unitPoints(TILE, [[10, 10]]), properties);
    expect(feature.properties).toEqual({ NAME: 'Zuid-Afrika', COUNT: 3, BELOW: -4, SHARE: 2.5, LANDLOCKED: false, FOUNDED: '1910-05-31', HUGE: 1e20 });
  });

  it('encodes a tile with no features as its layer with no features', () => {
    const [layer, ...others] = layersOf(encodeVectorTile(LAYER, TILE, [], noCheckpoint));
    expect(others).toEqual([]);
    expect({ name: layer.name, version: layer.version, extent: layer.extent, length: layer.length }).toEqual({ name: LAYER, version: 2, extent: 4096, length: 0 });
  });

  it('clips a ring of a million vertices round the tile exactly, looking at the checkpoint as it goes', () => {
    // A circle of radius 10 tiles about the tile's centre: what is left is the buffered tile.
    const count = 1_000_000;
    const ring = Array.from({ length: count + 1 }, (_, i) => {
      const angle = (2 * Math.PI * (i % count)) / count;
      return [2048 + 40960 * Math.cos(angle), 2048 + 40960 * Math.sin(angle)];
    });
    const shape = polygonsShape(Float64Array.from(metresOf(TILE, ring)), Uint32Array.of(0, count + 1), Uint32Array.of(0, 1));
    let looks = 0;
    const bytes = encodeVectorTile(LAYER, TILE, [{ id: 1, shape, properties: {} }], () => void looks++);
    const [exterior] = partsOf(decodedFeatures(bytes, LAYER)[0]);
    expect(surveyorArea(exterior)).toBe(4224 * 4224);
    expect(looks).toBeGreaterThanOrEqual(count / 50_000);
    let stopAfter = 3;
    const stopping = () => {
      if (--stopAfter === 0) throw new Error('stopped');
    };
    expect(() => encodeVectorTile(LAYER, TILE, [{ id: 1, shape, properties: {} }], stopping)).toThrow('stopped');
  });
});
