/**
 * A tileset's limits (docs/ogc.md, "OGC API – Tiles"): every tile that draws something of the
 * layer is within them, those whose margin alone reaches a feature at the layer's edge too.
 */
import { describe, expect, it } from 'vitest';
import { tileMatrixSetLimits } from '../../src/ogc/tile-matrix-set.ts';
import { tileBox } from '../../src/projection/tile-address.ts';
import { toLonLat } from '../../src/projection/web-mercator.ts';

describe("a tileset's limits", () => {
  it('take in the neighbours of a tile corner a layer of one point sits on, where its symbol is drawn', () => {
    const corner = tileBox({ z: 16, x: 33_000, y: 21_000 });
    const { lon, lat } = toLonLat({ x: corner.xmin, y: corner.ymax });
    const limits = tileMatrixSetLimits({ xmin: lon, ymin: lat, xmax: lon, ymax: lat });
    // A symbol at a corner shared by four tiles is drawn into all four.
    expect(limits.find((limit) => limit.tileMatrix === '16')).toEqual({ tileMatrix: '16', minTileCol: 32_999, maxTileCol: 33_000, minTileRow: 20_999, maxTileRow: 21_000 });
    // At zoom 0 one tile holds the world.
    expect(limits[0]).toEqual({ tileMatrix: '0', minTileCol: 0, maxTileCol: 0, minTileRow: 0, maxTileRow: 0 });
  });
});
