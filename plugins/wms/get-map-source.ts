/**
 * GetMap answers over HTTP, with the latest ones kept in memory (least recently used out,
 * bounded in bytes), and maps that want the same one at the same time sharing one request:
 * a map asked for again, or a page of maps of one feature, costs the WMS server one
 * rendering. A shared request stops when no map waits for it any more. Anything but an
 * image makes the basemap unavailable, with the server's own exception message when it sent
 * one.
 */
import {
  arrayBytes,
  BasemapUnavailableError,
  boundedBody,
  byteBoundedCache,
  imageSizeProblem,
  OBJECT_BYTES,
  untilAborted,
  type ImageSize,
  type PlacedImage,
  type ProviderMetrics,
} from '../../src/sdk/plugin.ts';
import { serviceExceptionText } from './service-exception.ts';

export interface MapImage {
  mime: PlacedImage['mime'];
  bytes: Uint8Array;
}

export interface GetMapSourceOptions {
  /** The provider id, for messages. */
  provider: string;
  userAgent: string;
  /** The image format asked for, preferred in the Accept header. */
  format: string;
  timeoutMs: number;
  /** Bytes of images kept in memory; 0 keeps none. */
  cacheBytes: number;
  /** Counts each GetMap image as a tile. */
  metrics?: ProviderMetrics;
}

/** What a GetMap answer may be: an image of at most `maxBytes` that declares at most `size` (the WIDTH and HEIGHT asked for). */
export interface GetMapBounds {
  maxBytes: number;
  size: ImageSize;
}

export interface GetMapSource {
  /**
   * The image the GetMap `url` answers, within `bounds` (an answer past them makes the
   * basemap unavailable); `signal` ends the wait (the map's time is up).
   */
  get(url: string, bounds: GetMapBounds, signal: AbortSignal): Promise<MapImage>;
}

export function createGetMapSource(options: GetMapSourceOptions): GetMapSource {
  // Keyed by the GetMap URL, whose length the operator's options and the view decide: counted too.
  const cache = byteBoundedCache<MapImage>(options.cacheBytes, (image) => OBJECT_BYTES + arrayBytes(image.bytes));
  const inFlight = new Map<string, SharedFetch>();
  /** Forgets a fetch once it is over or stopped, unless a newer one for the same URL took its place. */
  const forget = (url: string, fetching: SharedFetch) => {
    if (inFlight.get(url) === fetching) inFlight.delete(url);
  };
  const share = (url: string, bounds: GetMapBounds): SharedFetch => {
    options.metrics?.tileCacheMiss();
    const stop = new AbortController();
    const fetching: SharedFetch = { image: fetchImage(url, bounds, options, stop.signal), stop, waiting: 0 };
    inFlight.set(url, fetching);
    void fetching.image.then(
      // An image larger than the whole cache is not kept.
      (image) => cache.set(url, image),
      // A request no map waits for any more was stopped, not failed.
      () => {
        if (!stop.signal.aborted) options.metrics?.tileFetchError();
      },
    ).finally(() => forget(url, fetching));
    return fetching;
  };
  return {
    async get(url, bounds, signal) {
      const cached = cache.get(url);
      if (cached) {
        options.metrics?.tileCacheHit();
        return cached;
      }
      if (signal.aborted) throw new BasemapUnavailableError(options.provider, 'the map ran out of time.');
      const fetching = inFlight.get(url) ?? share(url, bounds);
      fetching.waiting++;
      try {
        return await untilAborted(fetching.image, signal, options.provider);
      } catch (error) {
        if (signal.aborted) throw new BasemapUnavailableError(options.provider, 'the map ran out of time while the WMS server was drawing it.');
        throw error;
      } finally {
        if (--fetching.waiting === 0) {
          fetching.stop.abort();
          // A map that comes now must not join a stopped request.
          forget(url, fetching);
        }
      }
    },
  };
}

interface SharedFetch {
  image: Promise<MapImage>;
  /** Aborted when the last map waiting for the image has given up (or got it). */
  stop: AbortController;
  waiting: number;
}

async function fetchImage(url: string, { maxBytes, size }: GetMapBounds, options: GetMapSourceOptions, signal: AbortSignal): Promise<MapImage> {
  const unavailable = (reason: string) => new BasemapUnavailableError(options.provider, reason);
  let response: Response;
  let bytes: Uint8Array;
  try {
    response = await fetch(url, {
      // Exceptions come as XML whatever was asked for.
      headers: { 'User-Agent': options.userAgent, Accept: `${options.format}, */*;q=0.1` },
      signal: AbortSignal.any([signal, AbortSignal.timeout(options.timeoutMs)]),
    });
    const body = await boundedBody(response, maxBytes);
    if (!body) throw unavailable(`the WMS server answered GetMap with more than ${maxBytes} bytes.`);
    bytes = body;
  } catch (error) {
    if (error instanceof BasemapUnavailableError) throw error;
    if (signal.aborted) throw unavailable('the map ran out of time while the WMS server was drawing it.');
    if ((error as Error).name === 'TimeoutError') throw unavailable(`the WMS server did not answer within ${options.timeoutMs} ms.`);
    throw unavailable(`the WMS server cannot be reached (${(error as Error).message}).`);
  }
  const mime = sniffImage(bytes);
  if (response.ok && mime) {
    // Decoding allocates what the header declares: a server that answers more pixels than were asked for is not drawn.
    const oversized = imageSizeProblem(bytes, size);
    if (oversized) throw unavailable(`the WMS server answered GetMap for ${size.width} × ${size.height} pixels with an image that is not drawn: ${oversized}.`);
    return { mime, bytes };
  }

  const contentType = response.headers.get('content-type') ?? '';
  // MapServer answers exceptions with HTTP 200, others with 400 or 500: the body decides.
  if (/xml/i.test(contentType) || /^\s*</.test(new TextDecoder().decode(bytes.subarray(0, 100)))) {
    const exception = serviceExceptionText(new TextDecoder().decode(bytes));
    if (exception !== undefined) throw unavailable(`the WMS server reported an exception: ${exception}`);
  }
  if (!response.ok) throw unavailable(`the WMS server answered HTTP ${response.status} to GetMap.`);
  throw unavailable(`the WMS server answered GetMap with ${contentType || 'no Content-Type'}, not a PNG or JPEG image.`);
}

/** The image type from the first bytes: a server's Content-Type may be wrong. */
function sniffImage(bytes: Uint8Array): MapImage['mime'] | undefined {
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return undefined;
}
