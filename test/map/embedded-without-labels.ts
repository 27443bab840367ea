/**
 * The embedded basemap with none of its own labels, loaded by path as an operator's plugin
 * would be: what a map's features and basemap look like when the basemap writes no name, for
 * tests to compare a map whose basemap labels gave way against.
 */
import embedded from '../../plugins/embedded/index.ts';
import type { BasemapPlugin } from '../../src/sdk/plugin.ts';

const plugin: BasemapPlugin = {
  sdkVersion: 1,
  async create(options, context) {
    const provider = await embedded.create(options, context);
    return {
      name: provider.name,
      render: async (request) => ({ ...(await provider.render(request)), above: undefined }),
      close: () => provider.close?.() ?? Promise.resolve(),
    };
  },
};

export default plugin;
