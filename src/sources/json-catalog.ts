/**
 * An HTTP source's catalog as JSON: nginx's directory listing (`autoindex_format json`: an
 * array of {name, type, mtime, size}), or a `shapeshot-catalog.json` holding the same array
 * where the server lists nothing. Pure: text in, entries out.
 */
import type { SourceEntry } from '../plugin-contract/data-source-plugin.ts';

/**
 * The files of the listing, each with the version `versionOf(size, mtime)` gives; undefined
 * when `text` is no such array (an HTML listing, an error page). Folders, and entries whose
 * size or time cannot be right, are left out: the catalog is flat.
 */
export function parseJsonCatalog(text: string, versionOf: (size: number, modifiedMs: number) => string): SourceEntry[] | undefined {
  let listing: unknown;
  try {
    listing = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(listing)) return undefined;
  const entries: SourceEntry[] = [];
  for (const item of listing as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { name, type, mtime, size } = item as Record<string, unknown>;
    const modifiedMs = typeof mtime === 'string' ? Date.parse(mtime) : NaN;
    // Names are judged by the catalog, which leaves out and reports those it cannot serve (source-catalog.ts).
    if (type !== 'file' || typeof name !== 'string') continue;
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0 || !Number.isFinite(modifiedMs)) continue;
    entries.push({ name, size, version: versionOf(size, modifiedMs), modifiedMs: wholeSeconds(modifiedMs) });
  }
  return entries;
}

/** A time as an HTTP date carries it, to the second: a listing and a HEAD then say the same. */
export function wholeSeconds(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

/** Longer than any shapefile name a folder holds, short enough to quote in a message. */
const MAX_NAME_LENGTH = 255;

/**
 * A file name of the folder itself: no path, nothing that walks up, no control characters
 * (a line break would forge a log line or a cache key), no lone surrogate (no URL can name
 * it: encodeURIComponent throws), of a length messages may quote.
 */
export function isPlainName(name: string): boolean {
  return name !== '' && name !== '.' && name !== '..' && name.length <= MAX_NAME_LENGTH && !/[/\\\x00-\x1f\x7f]|\p{Cs}/u.test(name);
}
