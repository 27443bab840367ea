/**
 * Caches bounded by the bytes they really hold, keys included (docs/decisions.md, "Cost, load and
 * cancellation"): a cache that charged a fixed guess per entry let one /ogc filter text of
 * 24 KB cost 256 bytes, and 30,000 of them grow the process by 205 MB. Every cache of the
 * service and of its plugins goes through here, so that there is one way to count an
 * entry: its key's characters, its value's own bytes, and what V8 and lru-cache spend to
 * hold them (the constants below, measured on Node 20 and checked by
 * test/structures/byte-bounded-cache.test.ts against the heap).
 */
import { LRUCache } from 'lru-cache';

/** What lru-cache and V8 spend on one entry beside its key's characters and its value: map slot, list links, size. */
const ENTRY_BYTES = 160;
/** A string's header; its characters count two bytes each, as UTF-16 (V8 keeps Latin-1 text in one, but not always). */
const STRING_HEADER_BYTES = 24;
/** A typed array's objects (the view, its ArrayBuffer, the backing store's record) beside the buffer's bytes. */
const ARRAY_HEADER_BYTES = 224;
/** A plain object with a few fields (a wrapper, a record of arrays). */
export const OBJECT_BYTES = 64;

/** The bytes `text` may take in memory. */
export function stringBytes(text: string): number {
  return STRING_HEADER_BYTES + 2 * text.length;
}

/**
 * The bytes a typed array keeps alive: its whole buffer, which may be larger than the view
 * (a subarray keeps the buffer it was cut from), and its headers.
 */
export function arrayBytes(view: ArrayBufferView): number {
  return ARRAY_HEADER_BYTES + view.buffer.byteLength;
}

export interface ByteBoundedCache<Value> {
  get(key: string): Value | undefined;
  /** Keeps `value` under `key`, least recently used entries out first; a value larger than the whole bound is not kept. */
  set(key: string, value: Value): void;
  /** Bytes held, as counted: keys, values and bookkeeping. */
  readonly bytes: number;
  /** Entries held. */
  readonly size: number;
  /** The bound `bytes` stays within. */
  readonly maxBytes: number;
}

/**
 * A least-recently-used cache of at most `maxBytes`, each entry counted as its key's bytes,
 * `valueBytes(value)` and the bookkeeping; 0 (or less) keeps nothing.
 */
export function byteBoundedCache<Value extends object>(maxBytes: number, valueBytes: (value: Value) => number): ByteBoundedCache<Value> {
  if (!(maxBytes > 0)) return { get: () => undefined, set: () => undefined, bytes: 0, size: 0, maxBytes: 0 };
  const cache = new LRUCache<string, Value>({
    maxSize: maxBytes,
    sizeCalculation: (value, key) => Math.ceil(ENTRY_BYTES + stringBytes(key) + valueBytes(value)),
  });
  return {
    get: (key) => cache.get(key),
    set: (key, value) => void cache.set(key, value),
    get bytes() {
      return cache.calculatedSize;
    },
    get size() {
      return cache.size;
    },
    maxBytes,
  };
}
