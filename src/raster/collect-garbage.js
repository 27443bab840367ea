/**
 * resvg's rendered image keeps its pixmap (1.2 MB at 640x480) in native memory that V8 does
 * not count, so without a nudge the pixmaps of hundreds of renders pile up before a
 * collection frees them (measured on Node: peak RSS 364 MB under load without, ~280 MB
 * with a minor collection for every image, and worse, ~560 MB, with one every 16 MB,
 * as freed pixmaps then fragment the heap). Node's minor collection of a worker's small
 * heap costs ~0.05 ms, so it runs for every image. Deno ignores the type and collects
 * fully (milliseconds): there it runs once every 16 MB of pixmaps instead. Where the
 * runtime has no V8 flags to set (Bun), nothing is collected early.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A collection costing more than this is a full one, too dear to run for every image. */
const CHEAP_COLLECTION_MS = 0.3;
const SPACED_EVERY_BYTES = 16 * 1024 * 1024;

const collect = exposeGc();
const collectEveryBytes = collect && costOf(collect) < CHEAP_COLLECTION_MS ? 0 : SPACED_EVERY_BYTES;
let uncollectedBytes = 0;

/**
 * Called before a render that will make `bytes` of native memory: collects what earlier
 * renders left, when enough piled up. Before, not after: a collection while the new
 * pixels are still held moves them out of the young generation, and pixels that then
 * survive one more (a stale reference in optimized code is enough) are promoted, where
 * only a full collection frees them. Measured in a worker drawing images in a loop: a
 * collection after each render turned 5 full collections in 2,000 images into ~40, and
 * 0.4 ms of CPU an image, depending on which code V8 happened to optimize.
 * @param {number} bytes
 */
export function collectBeforeNativeAllocation(bytes) {
  if (!collect) return;
  uncollectedBytes += bytes;
  if (uncollectedBytes <= collectEveryBytes) return;
  uncollectedBytes = 0;
  collect();
}

/** @returns {(() => void) | undefined} */
function exposeGc() {
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc');
    if (typeof gc === 'function') return () => gc({ type: 'minor' });
  } catch {
    // no V8 flags to set here
  }
  return undefined;
}

/** @param {() => void} action the cheapest of three runs, in ms */
function costOf(action) {
  let cheapest = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    action();
    cheapest = Math.min(cheapest, performance.now() - start);
  }
  return cheapest;
}
