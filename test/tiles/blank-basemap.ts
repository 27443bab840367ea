/**
 * A basemap that draws nothing and credits no one, loaded by path as an operator's plugin
 * would be: a map over it is its features alone on transparency, as a raster tile is, so
 * that the two can be compared pixel for pixel (test/tiles/raster-tiles-vs-map.test.ts).
 */
import type { BasemapPlugin } from '../../src/sdk/plugin.ts';

const plugin: BasemapPlugin = {
  sdkVersion: 1,
  create: (_options, context) => ({ name: context.name, render: async () => ({ below: {}, attribution: '' }) }),
};

export default plugin;
