/**
 * resvg for the render workers: the native addon (@resvg/resvg-js) where it loads, else
 * its WebAssembly build (@resvg/resvg-wasm). Both are resvg 2.6.2 and draw the same pixels;
 * the WebAssembly build takes about twice the CPU per image and ~150 ms to compile per
 * worker. The addon does not load where no prebuilt binary exists for the platform, or on
 * Deno without --allow-ffi. Plain JavaScript with JSDoc types, like every worker module.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The font options of resvg-js: font files by path. The WebAssembly build cannot open
 * files, so it is handed their bytes instead.
 * @typedef {{ loadSystemFonts?: boolean, fontFiles?: string[], defaultFontFamily?: string }} FontOptions
 */

/**
 * Premultiplied RGBA pixels, row by row, as resvg renders them.
 * @typedef {{ width: number, height: number, pixels: Uint8Array }} Raster
 */

/**
 * @typedef {object} Rasterizer
 * @property {'native' | 'wasm'} backend
 * @property {(svg: string, font: FontOptions, zoom?: number, lap?: (stage: string) => void) => Raster} render
 *   `zoom` real pixels per user unit (the image is its width × zoom by its height × zoom);
 *   `lap` marks the ends of parsing, rendering and taking the pixels, for the per-stage breakdown.
 */

const noLap = (/** @type {string} */ _stage) => undefined;

/**
 * resvg's option that draws the SVG at `zoom` times its size; none at 1, which leaves the
 * common render exactly as it was.
 * @param {number} zoom
 */
const fitTo = (zoom) => (zoom === 1 ? {} : { fitTo: /** @type {const} */ ({ mode: 'zoom', value: zoom }) });

/** @returns {Promise<Rasterizer>} the native addon if it loads, else the WebAssembly build */
export async function loadRasterizer() {
  try {
    return await nativeRasterizer();
  } catch (nativeError) {
    try {
      return await wasmRasterizer();
    } catch (wasmError) {
      throw new AggregateError([nativeError, wasmError], 'Neither @resvg/resvg-js nor @resvg/resvg-wasm loads');
    }
  }
}

/** @returns {Promise<Rasterizer>} */
export async function nativeRasterizer() {
  const { Resvg } = await import('@resvg/resvg-js');
  return {
    backend: 'native',
    render(svg, font, zoom = 1, lap = noLap) {
      const tree = new Resvg(svg, { font, ...fitTo(zoom) });
      lap('resvg-parse');
      const image = tree.render();
      lap('render');
      // A copy of the pixmap: the getter copies it on every read.
      const pixels = plainBytes(image.pixels);
      lap('resvg-pixels');
      return { width: image.width, height: image.height, pixels };
    },
  };
}

/**
 * The bytes as a plain Uint8Array (resvg-js gives a Buffer): the pixel loops that follow
 * see one kind of array whatever made the pixels, and stay fast. They read whole pixels as
 * 32-bit words, which must start on a 4-byte boundary: bytes that do not are copied.
 * @param {Uint8Array} bytes
 */
function plainBytes(bytes) {
  if (bytes.byteOffset % 4 !== 0) return new Uint8Array(bytes);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** @type {Promise<void> | undefined} */
let wasmReady;

/** @returns {Promise<Rasterizer>} */
export async function wasmRasterizer() {
  const { Resvg, initWasm } = await import('@resvg/resvg-wasm');
  // The module is compiled once per thread; initWasm refuses a second call.
  wasmReady ??= initWasm(readFileSync(createRequire(import.meta.url).resolve('@resvg/resvg-wasm/index_bg.wasm')));
  await wasmReady;
  // Each font is read once per worker, synchronously so that render() stays synchronous.
  /** @type {Map<string, Uint8Array>} */
  const fontBytes = new Map();
  /** @param {string} path */
  const readFont = (path) => {
    let bytes = fontBytes.get(path);
    if (!bytes) fontBytes.set(path, (bytes = readFileSync(path)));
    return bytes;
  };
  return {
    backend: 'wasm',
    // There are no system fonts to load in WebAssembly: only the files asked for.
    render(svg, { fontFiles = [], loadSystemFonts: _none, ...font }, zoom = 1, lap = noLap) {
      const resvg = new Resvg(svg, { font: { ...font, fontBuffers: fontFiles.map(readFont) }, ...fitTo(zoom) });
      lap('resvg-parse');
      // WebAssembly memory is not garbage-collected: free what resvg allocates there.
      try {
        const image = resvg.render();
        lap('render');
        try {
          const pixels = plainBytes(image.pixels);
          lap('resvg-pixels');
          return { width: image.width, height: image.height, pixels };
        } finally {
          image.free();
        }
      } finally {
        resvg.free();
      }
    },
  };
}
