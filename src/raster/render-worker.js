/**
 * Worker thread: rasterizes SVG to PNG with resvg, off the event loop. Plain JavaScript
 * with JSDoc types: every runtime loads it as it is, so a worker starts in milliseconds
 * and without a TypeScript loader of its own.
 */
import { noteNativeGarbage } from './collect-garbage.js';
import { encodePng } from './png.js';
import { loadRasterizer } from './resvg.js';
import { unpremultiplyInPlace } from './unpremultiply.js';
import { serveJobs } from './worker-protocol.js';

/** @typedef {import('./render-pool.ts').RenderRequest} RenderRequest */

// Jobs posted while this loads wait in the port's queue.
const resvg = await loadRasterizer();

serveJobs((/** @type {RenderRequest} */ { svg, width, height, compressionLevel, fonts }) => {
  // Only the fonts the request names: loading the system fonts would cost milliseconds per render.
  const font = fonts?.length
    ? { fontFiles: fonts, loadSystemFonts: false, defaultFontFamily: 'Noto Sans' }
    : { loadSystemFonts: false };
  const image = resvg.render(svg, font);
  if (image.width !== width || image.height !== height) {
    throw new Error(`Rendered ${image.width}x${image.height}, expected ${width}x${height}`);
  }
  // resvg's own asPng() compresses hard and costs several times the rendering itself.
  const png = encodePng(unpremultiplyInPlace(image.pixels), width, height, compressionLevel);
  noteNativeGarbage(width * height * 4);
  return { result: png, transfer: [/** @type {ArrayBuffer} */ (png.buffer)] };
});
