/**
 * Worker thread: rasterizes SVG to PNG with resvg, off the event loop. Plain JavaScript
 * with JSDoc types: every runtime loads it as it is, so a worker starts in milliseconds
 * and without a TypeScript loader of its own.
 */
import { Resvg } from '@resvg/resvg-js';
import { encodePng } from './png.js';
import { unpremultiplyInPlace } from './unpremultiply.js';
import { serveJobs } from './worker-protocol.js';

/** @typedef {import('./render-pool.ts').RenderRequest} RenderRequest */

serveJobs((/** @type {RenderRequest} */ { svg, width, height, compressionLevel }) => {
  // We draw no text, and loading the system fonts would cost milliseconds per render.
  const image = new Resvg(svg, { font: { loadSystemFonts: false } }).render();
  if (image.width !== width || image.height !== height) {
    throw new Error(`Rendered ${image.width}x${image.height}, expected ${width}x${height}`);
  }
  // resvg's own asPng() compresses hard and costs several times the rendering itself.
  const png = encodePng(unpremultiplyInPlace(image.pixels), width, height, compressionLevel);
  return { result: png, transfer: [/** @type {ArrayBuffer} */ (png.buffer)] };
});
