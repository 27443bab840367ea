/**
 * Reads from a data source in fixed-size blocks, kept in a least-recently-used cache bounded
 * in bytes (structures/byte-bounded-cache.ts) and keyed by source, file, version and block:
 * the headers and `.shx` entries a file's requests keep asking for cost one round trip, once
 * per version, and a new version is simply other keys.
 *
 * A read asks the source only for the blocks it misses, each run of adjacent missing blocks
 * as one range request. A block already being fetched for another read is waited for, not
 * fetched again; such a shared fetch stops only when every read waiting for it has stopped
 * (one client leaving must not fail the others), and a read whose signal fires stops waiting
 * at once.
 */
import type { DataSource } from '../plugin-contract/data-source-plugin.ts';
import { arrayBytes, byteBoundedCache } from '../structures/byte-bounded-cache.ts';
import type { ReadBudget } from './read-budget.ts';

export const DEFAULT_BLOCK_BYTES = 64 * 1024;

export interface BlockRead {
  source: DataSource;
  name: string;
  /** The file's version, as list() or stat() gave it: part of every block's key, and handed to the source's reads. */
  version: string;
  offset: number;
  length: number;
  signal: AbortSignal;
  /** The request's budget, charged with what is fetched (not with what the cache holds). */
  budget?: ReadBudget;
}

export interface BlockCache {
  /**
   * Up to `length` bytes from `offset`, fewer only at the end of the file. The source's
   * errors pass through as it threw them (FileChangedError included, for the caller to read
   * again at the new version); nothing of a failed fetch is kept.
   */
  read(request: BlockRead): Promise<Uint8Array>;
  /**
   * The bytes `read` would give, when every block of the range is held: no fetch, no wait,
   * so that a synchronous reader can use what is cached (job-context/job-bytes.ts).
   * undefined when a block is missing.
   */
  held(request: Omit<BlockRead, 'signal' | 'budget'>): Uint8Array | undefined;
  /** Bytes the cache holds, as counted. */
  readonly bytes: number;
  /** The bound `bytes` stays within. */
  readonly maxBytes: number;
  readonly blockBytes: number;
}

/** One range request for a run of blocks, and the reads waiting for it. */
interface SharedFetch {
  blocks: Promise<Uint8Array[]>;
  controller: AbortController;
  waiters: number;
}

export function createBlockCache({ maxBytes, blockBytes = DEFAULT_BLOCK_BYTES }: { maxBytes: number; blockBytes?: number }): BlockCache {
  const cache = byteBoundedCache<Uint8Array>(maxBytes, arrayBytes);
  /** Per block key being fetched: its run's fetch and its place in the run. */
  const inFlight = new Map<string, { fetch: SharedFetch; index: number }>();

  /** Starts one range request for the blocks of `keys`, from block `firstBlock` on. */
  const fetchRun = ({ source, name, version }: BlockRead, keys: string[], firstBlock: number): SharedFetch => {
    const controller = new AbortController();
    const blocks = source.read(name, firstBlock * blockBytes, keys.length * blockBytes, controller.signal, version).then((bytes) =>
      keys.map((key, index) => {
        // Copied out, so that each block cached holds its own bytes, not the whole run's buffer.
        const block = bytes.slice(index * blockBytes, (index + 1) * blockBytes);
        cache.set(key, block);
        return block;
      }),
    );
    const fetch: SharedFetch = { blocks, controller, waiters: 0 };
    keys.forEach((key, index) => inFlight.set(key, { fetch, index }));
    const settle = () => keys.forEach((key) => inFlight.get(key)?.fetch === fetch && inFlight.delete(key));
    blocks.then(settle, settle);
    return fetch;
  };

  const keyOf = ({ source, name, version }: Pick<BlockRead, 'source' | 'name' | 'version'>, block: number) =>
    `${source.describe()}\n${name}\n${version}\n${block}`;

  return {
    blockBytes,
    maxBytes,
    get bytes() {
      return cache.bytes;
    },

    held(request) {
      const { offset, length } = request;
      if (length <= 0) return new Uint8Array(0);
      const firstBlock = Math.floor(offset / blockBytes);
      const lastBlock = Math.floor((offset + length - 1) / blockBytes);
      const blocks: Uint8Array[] = [];
      for (let block = firstBlock; block <= lastBlock; block++) {
        const held = cache.get(keyOf(request, block));
        if (held === undefined) return undefined;
        blocks.push(held);
        // A short block is the end of the file: the blocks after it hold nothing.
        if (held.length < blockBytes) break;
      }
      return assemble(blocks, offset - firstBlock * blockBytes, length, blockBytes);
    },

    async read(request) {
      const { source, offset, length, signal, budget } = request;
      signal.throwIfAborted();
      if (length <= 0) return new Uint8Array(0);
      const firstBlock = Math.floor(offset / blockBytes);
      const lastBlock = Math.floor((offset + length - 1) / blockBytes);

      // Each block: held, being fetched for another read, or missing (adjacent missing blocks make one run).
      type Planned = { held: Uint8Array } | { shared: { fetch: SharedFetch; index: number } } | { run: string[]; from: number };
      const plan: Planned[] = [];
      for (let block = firstBlock; block <= lastBlock; block++) {
        const key = keyOf(request, block);
        const held = cache.get(key);
        // A fetch stopped for reads that all left is not joined: it is about to fail.
        const pending = inFlight.get(key);
        const shared = held === undefined && pending !== undefined && !pending.fetch.controller.signal.aborted ? pending : undefined;
        const last = plan[plan.length - 1];
        if (held !== undefined) plan.push({ held });
        else if (shared !== undefined) plan.push({ shared });
        else if (last !== undefined && 'run' in last) last.run.push(key);
        else plan.push({ run: [key], from: block });
      }
      const missingBlocks = plan.reduce((sum, step) => sum + ('run' in step ? step.run.length : 0), 0);
      if (missingBlocks > 0) budget?.charge(missingBlocks * blockBytes, source.describe());

      const waitedFor = new Set<SharedFetch>();
      const parts: (Uint8Array | Promise<Uint8Array>)[] = [];
      for (const step of plan) {
        if ('held' in step) parts.push(step.held);
        else if ('shared' in step) {
          const { fetch, index } = step.shared;
          waitedFor.add(fetch);
          parts.push(fetch.blocks.then((blocks) => blocks[index]));
        } else {
          const fetch = fetchRun(request, step.run, step.from);
          waitedFor.add(fetch);
          parts.push(...step.run.map((_, index) => fetch.blocks.then((blocks) => blocks[index])));
        }
      }
      for (const fetch of waitedFor) fetch.waiters++;
      try {
        const blocks = await untilAborted(Promise.all(parts), signal);
        return assemble(blocks, offset - firstBlock * blockBytes, length, blockBytes);
      } finally {
        // A fetch nobody waits for any more stops; one that others wait for, or that is done, goes on for them and the cache.
        for (const fetch of waitedFor) if (--fetch.waiters === 0 && signal.aborted) fetch.controller.abort(signal.reason);
      }
    },
  };
}

/** `work`, or the signal's reason once it fires, whichever comes first. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The `length` bytes from `start` of the blocks laid end to end; a short block is the end of the file. */
function assemble(blocks: Uint8Array[], start: number, length: number, blockBytes: number): Uint8Array {
  const end = blocks.findIndex((block) => block.length < blockBytes);
  const whole = end === -1 ? blocks : blocks.slice(0, end + 1);
  const available = whole.reduce((sum, block) => sum + block.length, 0);
  const bytes = new Uint8Array(Math.max(0, Math.min(length, available - start)));
  let at = -start;
  for (const block of whole) {
    // The part of this block that falls inside [start, start + length).
    const from = Math.max(0, -at);
    const to = Math.min(block.length, bytes.length - at);
    if (to > from) bytes.set(block.subarray(from, to), at + from);
    at += block.length;
  }
  return bytes;
}
