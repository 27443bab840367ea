/**
 * Tiles over HTTP with two caches in front: memory (least recently used out, bounded in
 * bytes) and, optionally, a folder on disk. Maps that want the same tile at once share one
 * fetch, which stops once every map that wanted it has stopped waiting. A tile server that
 * fails, or is too slow, makes the basemap unavailable.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import {
  arrayBytes,
  BasemapUnavailableError,
  boundedBody,
  byteBoundedCache,
  imageSizeProblem,
  MAX_TILE_PIXELS,
  OBJECT_BYTES,
  untilAborted,
  type PlacedImage,
  type PluginLogger,
  type ProviderMetrics,
} from '../../src/sdk/plugin.ts';

export interface Tile {
  mime: PlacedImage['mime'];
  bytes: Uint8Array;
}

export interface TileSourceOptions {
  /** The provider id, for messages. */
  provider: string;
  userAgent: string;
  /** Per attempt. */
  timeoutMs: number;
  /** Attempts after the first, for timeouts, network errors, 429 and 5xx. */
  retries: number;
  cacheBytes: number;
  cacheDir?: string;
  logger: PluginLogger;
  metrics?: ProviderMetrics;
}

export interface TileSource {
  /**
   * The tile at `url`, cached under `key`; null when the server has none there (404, 204).
   * `signal` ends this map's wait; the fetch itself stops when no map waits for it any more.
   */
  get(key: string, url: string, signal: AbortSignal): Promise<Tile | null>;
}

/** A fetch maps share, and how many of them still wait for it. */
interface SharedFetch {
  tile: Promise<Tile | null>;
  controller: AbortController;
  waiting: number;
}

const RETRY_DELAY_MS = 100;
/** A tile's record and the wrapper that keeps a missing tile (null) apart from a miss. */
const TILE_RECORD_BYTES = 2 * OBJECT_BYTES;

class RetryableFailure extends Error {}

export function createTileSource(options: TileSourceOptions): TileSource {
  const memory = byteBoundedCache<{ tile: Tile | null }>(options.cacheBytes, ({ tile }) => TILE_RECORD_BYTES + (tile ? arrayBytes(tile.bytes) : 0));
  const inFlight = new Map<string, SharedFetch>();
  /** Forgets a fetch once it is over or stopped, unless a newer one took its place. */
  const forget = (key: string, fetching: SharedFetch) => {
    if (inFlight.get(key) === fetching) inFlight.delete(key);
  };

  const load = async (key: string, url: string, signal: AbortSignal): Promise<Tile | null> => {
    const stored = options.cacheDir === undefined ? undefined : await readStored(join(options.cacheDir, key));
    if (stored) {
      options.metrics?.tileCacheHit();
      return stored;
    }
    options.metrics?.tileCacheMiss();
    let tile: Tile | null;
    try {
      tile = await fetchWithRetry(url, options, signal);
    } catch (error) {
      // A fetch no map waits for any more was stopped, not failed.
      if (!signal.aborted) options.metrics?.tileFetchError();
      throw error;
    }
    if (tile && options.cacheDir !== undefined) {
      store(join(options.cacheDir, key), tile.bytes).catch((error: unknown) =>
        options.logger.warn({ err: error, key }, 'could not write a tile to the disk cache'),
      );
    }
    return tile;
  };

  return {
    get(key, url, signal) {
      const cached = memory.get(key);
      if (cached) {
        options.metrics?.tileCacheHit();
        return Promise.resolve(cached.tile);
      }
      let shared = inFlight.get(key);
      if (!shared) {
        const controller = new AbortController();
        const started: SharedFetch = {
          tile: load(key, url, controller.signal)
            .then((loaded) => {
              memory.set(key, { tile: loaded });
              return loaded;
            })
            .finally(() => forget(key, started)),
          controller,
          waiting: 0,
        };
        inFlight.set(key, (shared = started));
      }
      const fetching = shared;
      fetching.waiting++;
      const stopWaiting = () => {
        if (--fetching.waiting > 0) return;
        fetching.controller.abort();
        // A map that asks for the tile now must not join a stopped fetch: it starts its own.
        forget(key, fetching);
      };
      signal.addEventListener('abort', stopWaiting, { once: true });
      return untilAborted(fetching.tile, signal, options.provider).finally(() => signal.removeEventListener('abort', stopWaiting));
    },
  };
}

async function fetchWithRetry(url: string, options: TileSourceOptions, signal: AbortSignal): Promise<Tile | null> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fetchOnce(url, options, signal);
    } catch (error) {
      if (!(error instanceof RetryableFailure) || signal.aborted) throw error;
      if (attempt >= options.retries) {
        throw new BasemapUnavailableError(options.provider, `${error.message} (${attempt + 1} attempt${attempt ? 's' : ''}).`);
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_DELAY_MS * (attempt + 1)));
    }
  }
}

/** A tile is some kilobytes; a 512-px one as raw RGBA is 1 MB. More is not a tile. */
const MAX_TILE_BYTES = 4 * 1024 * 1024;

async function fetchOnce(url: string, options: TileSourceOptions, signal: AbortSignal): Promise<Tile | null> {
  let response: Response;
  let bytes: Uint8Array;
  try {
    response = await fetch(url, {
      headers: { 'User-Agent': options.userAgent, Accept: 'image/png,image/jpeg,image/webp,image/*;q=0.8' },
      signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]),
    });
    const body = await boundedBody(response, MAX_TILE_BYTES);
    if (!body) throw new BasemapUnavailableError(options.provider, `the tile server sent a tile of more than ${MAX_TILE_BYTES} bytes.`);
    bytes = body;
  } catch (error) {
    if (error instanceof BasemapUnavailableError) throw error;
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    throw new RetryableFailure(
      timedOut ? `the tile server did not answer within ${options.timeoutMs} ms` : `the tile server cannot be reached (${(error as Error).message})`,
    );
  }
  if (response.status === 404 || response.status === 204) return null;
  if (response.status === 429 || response.status >= 500) throw new RetryableFailure(`the tile server answered HTTP ${response.status}`);
  if (!response.ok) throw new BasemapUnavailableError(options.provider, `the tile server answered HTTP ${response.status} for a tile.`);
  const mime = sniffMime(bytes);
  if (!mime) throw new BasemapUnavailableError(options.provider, 'the tile server sent a tile that is not a PNG, JPEG or WebP image.');
  // Decoding allocates what the header declares: a tile that declares more is refused before anything decodes it.
  const oversized = imageSizeProblem(bytes, MAX_TILE_PIXELS);
  if (oversized) throw new BasemapUnavailableError(options.provider, `the tile server sent a tile that is not drawn: ${oversized}.`);
  return { mime, bytes };
}

/** The image type from the first bytes: servers often send the wrong Content-Type. */
export function sniffMime(bytes: Uint8Array): Tile['mime'] | undefined {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  return undefined;
}

async function readStored(path: string): Promise<Tile | undefined> {
  const bytes = await readFile(path).then((buffer) => new Uint8Array(buffer), () => undefined);
  const mime = bytes && sniffMime(bytes);
  // Held to a fetched tile's bound: an older version may have stored it, or it was changed on disk.
  return mime && !imageSizeProblem(bytes!, MAX_TILE_PIXELS) ? { mime, bytes: bytes! } : undefined;
}

/** Written aside and renamed into place, so a reader never sees half a tile. */
async function store(path: string, bytes: Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.partial`;
  await writeFile(partial, bytes);
  await rename(partial, path);
}
