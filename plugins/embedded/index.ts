/**
 * The embedded basemap: Natural Earth land, coasts, borders and country names drawn as SVG,
 * fully offline, on a worker thread of its own (worker.ts). Options: `attribution` (text,
 * default 'Natural Earth').
 */
import { createRequire } from 'node:module';
import {
  byteBoundedCache,
  createWorkerPool,
  stringBytes,
  definePlugin,
  OBJECT_BYTES,
  type Basemap,
  type BasemapProvider,
  type BasemapRequest,
} from '../../src/sdk/plugin.ts';
import type { DrawnBasemap } from './draw.ts';
import type { DrawJob } from './worker.ts';

const DEFAULT_ATTRIBUTION = 'Natural Earth';
/** Noto Sans ships with the project, so labels look the same on every host (no system fonts). */
const FONT_FILE = createRequire(import.meta.url).resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf');
/** Bytes of SVG kept for repeated views (a page of maps often asks for the same one again): 32 M characters at two bytes each. */
const CACHE_BYTES = 64 * 1024 * 1024;
const OPTION_NAMES = new Set(['attribution']);

export default definePlugin({
  sdkVersion: 1,
  create(options, context): BasemapProvider {
    const attribution = attributionOption(options, context.name);
    const drawing = createWorkerPool({
      entry: new URL('./worker.ts', import.meta.url),
      workers: 1,
      name: `basemap provider '${context.name}'`,
      options: {},
    });
    const drawn = byteBoundedCache<DrawnBasemap>(
      CACHE_BYTES,
      // The record holding a view's layers, their SVG text, and each label's record, box and texts.
      ({ below, labels }) =>
        OBJECT_BYTES + stringBytes(below) + labels.reduce((sum, label) => sum + 2 * OBJECT_BYTES + stringBytes(label.text) + stringBytes(label.svg), 0),
    );
    return {
      name: context.name,
      async render({ view, type, culture, signal }: BasemapRequest): Promise<Basemap> {
        const key = [type, culture, view.zoom, view.left, view.top, view.width, view.height].join();
        let layers = drawn.get(key);
        if (layers === undefined) {
          layers = await drawing.run<DrawnBasemap>('draw', { view, type, culture } satisfies DrawJob, { signal });
          drawn.set(key, layers);
        }
        return {
          below: { svg: layers.below },
          above: layers.labels.length === 0 ? undefined : { labels: layers.labels },
          attribution,
          fonts: [FONT_FILE],
        };
      },
      close: () => drawing.close(),
    };
  },
});

function attributionOption(options: Record<string, unknown>, provider: string): string {
  for (const name of Object.keys(options)) {
    if (!OPTION_NAMES.has(name)) throw new Error(`Basemap provider '${provider}': unknown option '${name}' (the embedded plugin takes 'attribution').`);
  }
  const { attribution = DEFAULT_ATTRIBUTION } = options;
  if (typeof attribution !== 'string') throw new Error(`Basemap provider '${provider}': option 'attribution' must be text.`);
  return attribution;
}
