/**
 * What a piece of work leaves alive on this thread's heap, in bytes, measured between two
 * full garbage collections: how the cache tests compare what a cache counts with what it
 * really holds.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** JavaScript heap and ArrayBuffer memory in use, after full collections. */
export function liveBytes(): number {
  collectGarbage();
  collectGarbage();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** The bytes that what `work` returns keeps alive (it is held until measured). */
export function retainedBytes(work: () => unknown): number {
  const before = liveBytes();
  const kept = work();
  const after = liveBytes();
  // Read after the measurement, so that `kept` is alive during it.
  void kept;
  return after - before;
}
