/** Worker thread: rasterizes SVG to PNG with resvg, off the event loop. */
import { Resvg } from '@resvg/resvg-js';
import { encodePng } from './png.ts';
import { unpremultiplyInPlace } from './unpremultiply.ts';
import type { RenderRequest } from './render-pool.ts';
import { serveJobs } from './worker-protocol.ts';

serveJobs<RenderRequest, Uint8Array>(({ svg, width, height, compressionLevel }) => {
  // We draw no text, and loading the system fonts would cost milliseconds per render.
  const image = new Resvg(svg, { font: { loadSystemFonts: false } }).render();
  if (image.width !== width || image.height !== height) {
    throw new Error(`Rendered ${image.width}x${image.height}, expected ${width}x${height}`);
  }
  // resvg's own asPng() compresses hard and costs several times the rendering itself.
  const png = encodePng(unpremultiplyInPlace(image.pixels), width, height, compressionLevel);
  return { result: png, transfer: [png.buffer as ArrayBuffer] };
});
