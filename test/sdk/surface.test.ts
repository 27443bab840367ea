import { describe, expect, it } from 'vitest';
import * as sdk from '../../src/sdk/plugin.ts';

/**
 * What `shapeshot/plugin` exports is a published contract: a change here is a decision (an
 * addition keeps SDK_VERSION; a removal or a changed meaning raises it), not a side effect of
 * refactoring the modules it re-exports from.
 */
describe('the plugin SDK', () => {
  it('exports exactly its documented values', () => {
    expect(Object.keys(sdk).sort()).toEqual([
      'BasemapUnavailableError',
      'CULTURES',
      'DataSourceUnavailableError',
      'EARTH_RADIUS',
      'FileChangedError',
      'HALF_WORLD',
      'MAP_TYPES',
      'MAX_MERCATOR_LATITUDE',
      'MAX_TILE_PIXELS',
      'MAX_ZOOM',
      'MIN_ZOOM',
      'OBJECT_BYTES',
      'SDK_VERSION',
      'TILE_SIZE',
      'arrayBytes',
      'boundedBody',
      'byteBoundedCache',
      'createWorkerPool',
      'declaredImageSize',
      'defineDataSource',
      'definePlugin',
      'escapeXml',
      'hex',
      'imageSizeProblem',
      'isBasemapUnavailable',
      'isDataSourceUnavailable',
      'isFileChanged',
      'lonLatToWorldPixel',
      'mercatorX',
      'mercatorY',
      'paint',
      'parseColour',
      'pixelsPerMetre',
      'serveJobs',
      'shapesBBox',
      'stopPaint',
      'stringBytes',
      'tilesCovering',
      'toLonLat',
      'untilAborted',
      'viewBoundsInMetres',
      'workerOptions',
      'worldPixelToLonLat',
      'worldPixelToMetres',
      'worldSize',
    ]);
    expect(sdk.SDK_VERSION).toBe(1);
  });

  it('keeps the values plugins depend on', () => {
    expect([sdk.TILE_SIZE, sdk.MIN_ZOOM, sdk.MAX_ZOOM, sdk.EARTH_RADIUS]).toEqual([256, 1, 22, 6378137]);
    expect(sdk.MAP_TYPES).toEqual(['Road', 'Aerial', 'AerialWithLabels']);
    expect(sdk.CULTURES).toEqual(['English', 'Dutch']);
    expect(sdk.parseColour('#80ff0000')).toEqual({ r: 255, g: 0, b: 0, a: 128 / 255 });
    expect(sdk.paint('fill', { r: 0, g: 128, b: 128, a: 1 })).toBe(' fill="#008080"');
    expect(sdk.escapeXml('a < b & "c"\u0000')).toBe('a &lt; b &amp; &quot;c&quot;\uFFFD');
  });
});
