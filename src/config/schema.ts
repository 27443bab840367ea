/**
 * Every setting, its bounds and its default, in one zod schema: what config/load.ts checks the
 * merged configuration against (docs/configuration.md, "Where settings come from"), and what
 * that page's tables must list, default for default (test/docs.test.ts holds them equal).
 */
import { z } from 'zod';
import { BUNDLED_THEMES_DIR, SAMPLE_DATA_DIR } from './package-folders.ts';

const DEFAULT_LIMITS = {
  maxSize: 4096,
  maxIds: 1000,
  maxPixelsPerRequest: 64 * 1024 * 1024,
  requestTimeoutMs: 15_000,
  maxMapFeatures: 100_000,
  maxMapVertices: 5_000_000,
  maxImageVertices: 2_000_000,
  // A tile is one 256-px square of a slippy map, asked for dozens at a time: past these it is
  // drawn from the spatial index alone (docs/tiles.md, "Budgets"), which costs a few ms.
  maxTileFeatures: 10_000,
  maxTileVertices: 500_000,
  maxRings: 100_000,
  // About 3 s of one native render at ~65 ns a step (resvg 2.6 on 2 cores, picture-budget.ts):
  // a whole map of 100,000 polygons of a few pixels, outlined, takes about a fifth of it.
  maxDrawingWork: 50_000_000,
  // Measured on 2 cores while fixing issue 18, by hand, on a generated file like the one
  // test/api/answer-budgets.test.ts writes (many points with 20 wide text fields): 10,000
  // hot spots of 100-vertex polygons take ~0.5 s of a worker's CPU to make and write, of points ~50 ms; 8 MiB of attribute values
  // (by the .dbf widths) ~0.2 s to read and write; a 48 MiB answer ~0.4 s to write as JSON's
  // byte list on a worker and ~40 ms to put together on the main thread, which holds it
  // twice (parts and answer) for that moment: ~100 MB.
  maxHotSpots: 10_000,
  maxHotSpotAttributeBytes: 8 * 1024 * 1024,
  maxAnswerBytes: 48 * 1024 * 1024,
  writeStallMs: 10_000,
  maxPendingAnswerBytes: 512 * 1024 * 1024,
  maxCategories: 24,
  maxLabels: 500,
  // A where= scan of a 100 MB .dbf, or a thousand features of a large file, with room to spare;
  // only what a request fetches from a remote source counts (a local folder is not counted).
  maxSourceBytes: 256 * 1024 * 1024,
  // A Redis on the same network answers in well under a millisecond: 100 ms is a store that
  // is gone, or stalled, not one that is busy (docs/configuration.md, "Limits shared by instances").
  storeDeadlineMs: 100,
  storeFailure: 'open' as const,
};

const DEFAULT_OGC = { maxLimit: 1000, maxPageVertices: 2_000_000 };

const DEFAULT_SOURCE_CACHE_BYTES = 64 * 1024 * 1024;

/**
 * Where an s3:// dataDir is: AWS by default; an S3-compatible store (MinIO, R2, Ceph RGW)
 * by its endpoint. Credentials come from the standard AWS_* environment variables only, so
 * that no configuration file holds them.
 */
const s3Schema = z
  .object({
    /** The store's URL (`http://127.0.0.1:9000`); AWS's regional endpoint when absent. */
    endpoint: z.url({ protocol: /^https?$/ }).optional(),
    /** The bucket's region; AWS_REGION, then AWS_DEFAULT_REGION, then us-east-1 when absent. */
    region: z.string().min(1).optional(),
    /** Path-style addressing (`endpoint/bucket/key`); by default with an endpoint, virtual-host (`bucket.endpoint/key`) without. */
    pathStyle: z.boolean().optional(),
  })
  .strict()
  .default({});

/**
 * A data-source plugin (kind 'data') in place of dataDir: a package name or a path, with its
 * options, as basemap providers are configured.
 */
const dataSourceSchema = z
  .object({
    /** An npm package name, or a path (relative to the working directory) to a plugin module or its folder. */
    plugin: z.string().min(1),
    /** Handed to the plugin, which validates them. */
    options: z.record(z.string(), z.unknown()).default({}),
  })
  .strict();

/** The service's own credit; the data's is configured apart (`data`), so this says nothing of any data. */
const DEFAULT_COPYRIGHT = 'Copyright © 2026 shapeshot contributors.';

const attributionText = z.string().trim().min(1, 'must not be empty (leave the field out for no attribution)');

/**
 * The credit the served data asks for (its licence's attribution), added to the Copyright
 * of the answers that show it (envelope/copyright.ts). In the configuration, not in a file
 * beside each shapefile: the data folder may be read-only or another's, and one place
 * shows every credit the service gives.
 */
const dataSchema = z
  .object({
    /** Every shapefile's, unless it has its own; the bundled sample data has its sources' by default. */
    attribution: attributionText.optional(),
    /** By shapefile name as `file=` takes it (case-insensitive): an attribution in place of the folder's. */
    files: z.record(z.string().min(1), z.object({ attribution: attributionText }).strict()).default({}),
  })
  .strict()
  .default({ files: {} });

/** Browsers may reuse a picture for five minutes; shared caches must not keep what a key unlocked. */
const DEFAULT_CACHE_CONTROL = 'private, max-age=300';

/**
 * A key's `referrers` pattern: scheme, host (with its port, if any) and path, each with `*`
 * for any run of characters (auth/referrer-rules.ts matches them; docs/configuration.md,
 * "Allowed sites"). Hosts in ASCII, as browsers send them (punycode); no query or fragment,
 * which no Origin carries and the rule does not look at.
 */
export const REFERRER_PATTERN = /^(?<scheme>[a-z*][a-z\d+.*-]*):\/\/(?<host>[a-z\d.*:[\]-]+)(?<path>\/[^\s?#]*)?$/i;

const REFERRER_PATTERN_RULE =
  "must be a pattern 'scheme://host/path' with '*' for any run of characters (https://*.example.org/*): " +
  'the host in ASCII (punycode), no query or fragment';

const keySchema = z
  .object({
    /** A plain key (hashed at start-up and then forgotten) ... */
    key: z.string().min(8).optional(),
    /** ... or its SHA-256 hash in hex, so the config file need not hold the secret. */
    sha256: z
      .string()
      .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal digits')
      .optional(),
    /** A label for logs (the key itself is never logged). */
    name: z.string().optional(),
    /** Shapefile names (case-insensitive) this key may see; absent means all. */
    shapefiles: z.array(z.string()).optional(),
    /** Requests per second this key may make, with a burst allowance. */
    rateLimit: z
      .object({ perSecond: z.number().positive(), burst: z.number().int().positive() })
      .optional(),
    /** Requests this key may have in progress at once; more get 503 (none: no limit but the service's own). */
    maxConcurrent: z.number().int().positive().optional(),
    /** The secret that signs this key's URLs (`signature`, auth/url-signature.ts); kept in plain text, as HMAC needs it. */
    signingSecret: z.string().min(16, 'must be at least 16 characters (a random one: openssl rand -base64 32)').optional(),
    /** Refuse this key's requests that carry no valid signature (403); without it, a signature is checked only when one comes. */
    requireSignature: z.boolean().optional(),
    /** The pages that may use this key, as patterns with `*` (auth/referrer-rules.ts); absent means any page. */
    referrers: z.array(z.string().regex(REFERRER_PATTERN, REFERRER_PATTERN_RULE)).min(1).optional(),
    /** With `referrers`: accept requests that carry neither Referer nor Origin (default false: docs/configuration.md, "Allowed sites"). */
    allowNoReferrer: z.boolean().optional(),
    /** Requests this key may make per UTC day and per UTC month (auth/usage-counter.ts); past either, 429. */
    quota: z
      .object({ perDay: z.number().int().positive().optional(), perMonth: z.number().int().positive().optional() })
      .strict()
      .refine((q) => q.perDay !== undefined || q.perMonth !== undefined, { message: "needs 'perDay', 'perMonth' or both" })
      .optional(),
  })
  .strict()
  .refine((k) => (k.key === undefined) !== (k.sha256 === undefined), {
    message: "each key needs exactly one of 'key' or 'sha256'",
  })
  .refine((k) => !k.requireSignature || k.signingSecret !== undefined, {
    message: "'requireSignature' needs a 'signingSecret' to check signatures with",
    path: ['requireSignature'],
  })
  .refine((k) => k.allowNoReferrer === undefined || k.referrers !== undefined, {
    message: "'allowNoReferrer' applies only to a key with 'referrers'",
    path: ['allowNoReferrer'],
  });

const providerSchema = z
  .object({
    /** A folder name in plugins/, or a path (relative to the working directory) to a plugin module or its folder. */
    plugin: z.string().min(1),
    /** Handed to the plugin, which validates them. */
    options: z.record(z.string(), z.unknown()).default({}),
    /** Provider id that draws the map when this one is unavailable. */
    fallback: z.string().optional(),
  })
  .strict();

const DEFAULT_BASEMAPS = {
  providers: { embedded: { plugin: 'embedded', options: {} } },
  types: { Road: 'embedded', Aerial: 'embedded', AerialWithLabels: 'embedded' },
  userAgent: 'shapeshot/0.1 (+https://github.com/shapeshot/shapeshot)',
};

const basemapsSchema = z
  .object({
    /** Basemap providers by id. */
    providers: z.record(z.string().regex(/^[\w-]+$/, 'must be letters, digits, _ or -'), providerSchema).default(DEFAULT_BASEMAPS.providers),
    /** The provider id that serves each map type. */
    types: z
      .object({ Road: z.string(), Aerial: z.string(), AerialWithLabels: z.string() })
      .strict()
      .default(DEFAULT_BASEMAPS.types),
    /** User-Agent of providers' outgoing HTTP requests (tile servers ask for one that identifies the application). */
    userAgent: z.string().min(1).default(DEFAULT_BASEMAPS.userAgent),
    /** Folder for providers' on-disk caches (one subfolder per provider); none when absent. */
    cacheDir: z.string().optional(),
  })
  .strict()
  .default(DEFAULT_BASEMAPS);

export const configSchema = z
  .object({
    host: z.string().default('127.0.0.1'),
    port: z.number().int().min(0).max(65535).default(3000),
    /**
     * Folder of shapefiles; relative paths are resolved against the working directory. The
     * sample data by default. Or an `http://`/`https://` base URL, or `s3://bucket/prefix/`:
     * files are then read by range requests (docs/decisions.md, "Data sources beyond one local folder").
     */
    dataDir: z.string().default(SAMPLE_DATA_DIR),
    /** An S3 dataDir's store. */
    s3: s3Schema,
    /** A data-source plugin; when set, dataDir is not read. */
    dataSource: dataSourceSchema.optional(),
    /** How long a remote source's catalog (its listing) stands before it is listed again, in milliseconds; a name not in it is looked for at once. */
    catalogTtlMs: z.number().int().min(0).max(24 * 60 * 60 * 1000).default(60_000),
    /**
     * How long one look at the data folder's listing and at a shapefile's file sizes and times
     * stands for ETag and Last-Modified (milliseconds; 0: look on every request): a file changed
     * or removed may be answered with its old ETag, or 304, for this long. What is drawn is
     * always read fresh (a removed file is a 404 at once), and a file added is seen at once.
     */
    fileCheckMs: z.number().int().min(0).max(60_000).default(1_000),
    /** Credits of the data in dataDir. */
    data: dataSchema,
    /** Folder of theme files; the themes that ship with shapeshot by default. */
    themesDir: z.string().default(BUNDLED_THEMES_DIR),
    keys: z.array(keySchema).default([]),
    /**
     * Removed with the well-known demo key it switched (docs/configuration.md, "The start-up
     * key"); still read, so that a configuration written for it starts, and warned about.
     */
    demoKey: z.boolean().optional(),
    limits: z
      .object({
        /** Largest height or width of an image, in pixels. */
        maxSize: z.number().int().min(16).max(16384).default(DEFAULT_LIMITS.maxSize),
        /** Most ids one request may list in fid. */
        maxIds: z.number().int().min(1).default(DEFAULT_LIMITS.maxIds),
        /** Most pixels one request may make in all its images together. */
        maxPixelsPerRequest: z.number().int().min(1).default(DEFAULT_LIMITS.maxPixelsPerRequest),
        /**
         * A request still at work after this many milliseconds gets 503, and its work stops. At
         * most an hour: timers past 2^31-1 ms (24.8 days) fire at once.
         */
        requestTimeoutMs: z.number().int().min(100).max(60 * 60 * 1000).default(DEFAULT_LIMITS.requestTimeoutMs),
        /** Most features one map may draw (those in view); past it the map is refused with 400. */
        maxMapFeatures: z.number().int().min(1).default(DEFAULT_LIMITS.maxMapFeatures),
        /** Most vertices (as stored, before simplification) one map may draw. */
        maxMapVertices: z.number().int().min(1).default(DEFAULT_LIMITS.maxMapVertices),
        /** Most features one tile draws or encodes one by one; past it the tile is drawn from the spatial index alone. */
        maxTileFeatures: z.number().int().min(1).default(DEFAULT_LIMITS.maxTileFeatures),
        /** Most vertices (as stored) one tile draws or encodes; past it the tile is drawn from the spatial index alone. */
        maxTileVertices: z.number().int().min(1).default(DEFAULT_LIMITS.maxTileVertices),
        /** Most vertices (as stored) one images request may draw in all its images. */
        maxImageVertices: z.number().int().min(1).default(DEFAULT_LIMITS.maxImageVertices),
        /** Most rings one polygon record may have. */
        maxRings: z.number().int().min(1).default(DEFAULT_LIMITS.maxRings),
        /** Most pixel steps one picture's lines and polygons may take resvg to draw (drawing/picture-budget.ts). */
        maxDrawingWork: z.number().int().min(1).default(DEFAULT_LIMITS.maxDrawingWork),
        /**
         * Most hot spots one answer may carry, counted before decoding from the records'
         * part counts (features in view on a map, the listed ids on images).
         */
        maxHotSpots: z.number().int().min(1).default(DEFAULT_LIMITS.maxHotSpots),
        /**
         * Most bytes of `hotSpotFields` values one answer may carry: the fields' `.dbf` widths
         * (plus their names and markup) times the hot spots, known before any row is read.
         */
        maxHotSpotAttributeBytes: z.number().int().min(1).default(DEFAULT_LIMITS.maxHotSpotAttributeBytes),
        /** Most bytes one answer may have: the envelope with its images and hot spots, or a picture alone. */
        maxAnswerBytes: z.number().int().min(1024).default(DEFAULT_LIMITS.maxAnswerBytes),
        /**
         * A client that takes no byte of its answer for this long is cut off and the answer
         * dropped (Bun counts whole seconds, up to 255; README, Runtimes). At most ten minutes:
         * past 2^31-1 ms timers fire at once, and a stall that long holds its bytes for nothing.
         */
        writeStallMs: z.number().int().min(100).max(10 * 60 * 1000).default(DEFAULT_LIMITS.writeStallMs),
        /**
         * Bytes of admitted requests' answers made and not yet read by their clients, over all
         * connections: while past it, new work is refused with 503, and so is an answer that
         * would take the total past it once made (one is given alone, however large). 512 MiB
         * is ten of the largest answers (maxAnswerBytes, 48 MiB) and leaves the process well
         * under 1.5 GB with forty clients that never read (742 MiB measured with 51 /ogc pages
         * of 10.5 MB unread). Answers without admission (the docs) are not counted.
         */
        maxPendingAnswerBytes: z.number().int().min(0).default(DEFAULT_LIMITS.maxPendingAnswerBytes),
        /** Most classes `classify=categories` makes, one per distinct value in order of first appearance; the rest share an "other" class. */
        maxCategories: z.number().int().min(1).max(1000).default(DEFAULT_LIMITS.maxCategories),
        /**
         * Most labels one picture places (`labelField`); features past it, by priority (larger
         * first), are not labelled, and the placement's work stops there. At most 5,000: each
         * label is tested against those placed, and a picture has no room for more.
         */
        maxLabels: z.number().int().min(0).max(5000).default(DEFAULT_LIMITS.maxLabels),
        /**
         * Most bytes one drawing job may fetch from a remote data source (HTTP, S3, a plugin's):
         * past it the request is refused with 400 naming the limit. What the block cache
         * already holds is free.
         */
        maxSourceBytes: z.number().int().min(64 * 1024).default(DEFAULT_LIMITS.maxSourceBytes),
        /**
         * `redis://…` or `rediss://…` (TLS): the keys' rate limits, requests in progress and
         * quotas are kept there, shared by every instance that names it; absent, each instance
         * counts its own (docs/configuration.md, "Limits shared by instances").
         */
        store: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
        /** The longest a request waits on the store, in milliseconds; past it the store counts as unreachable. */
        storeDeadlineMs: z.number().int().min(1).max(5000).default(DEFAULT_LIMITS.storeDeadlineMs),
        /** While the store is unreachable: 'open' counts on this instance alone, 'closed' refuses the requests of keys with 503. */
        storeFailure: z.enum(['open', 'closed']).default(DEFAULT_LIMITS.storeFailure),
      })
      .strict()
      .default(DEFAULT_LIMITS),
    cache: z
      .object({
        /** Bytes of decoded feature geometry kept in memory, shared out among the drawing workers; 0 disables the cache. */
        featureBytes: z.number().int().min(0).default(16 * 1024 * 1024),
        /**
         * Bytes of a remote data source's files (.shx entries and .dbf rows in 16 KiB blocks, a
         * busy file's whole .shx) each drawing worker keeps, shared by its jobs; unused with a
         * local folder. Headers, records and scans are kept by the job that read them.
         */
        sourceBytes: z.number().int().min(1024 * 1024).default(DEFAULT_SOURCE_CACHE_BYTES),
      })
      .strict()
      .default({ featureBytes: 16 * 1024 * 1024, sourceBytes: DEFAULT_SOURCE_CACHE_BYTES }),
    render: z
      .object({
        /** Render worker threads; 0 picks the number of cores. */
        workers: z.number().int().min(0).max(64).default(0),
        /** Requests admitted beyond one per worker, to wait their turn; more get 503 at once. */
        maxQueue: z.number().int().min(0).default(64),
        /** A request that would wait longer than this for a worker (by the recent pace of work) gets 503 at once. */
        maxWaitMs: z.number().int().min(1).default(500),
        /** zlib level of the PNG encoder: 1 is fast and nearly as small for flat map graphics. */
        pngCompression: z.number().int().min(0).max(9).default(2),
        /** Quality of format=jpeg maps, 1–100: 85 keeps aerial imagery free of visible artefacts at a fifth of the PNG. */
        jpegQuality: z.number().int().min(1).max(100).default(85),
      })
      .strict()
      .default({ workers: 0, maxQueue: 64, maxWaitMs: 500, pngCompression: 2, jpegQuality: 85 }),
    envelope: z
      .object({
        schemaNamespace: z.string().default('http://schemas.microsoft.com/search/local/ws/rest/v1'),
        /**
         * The service's own text, first in every envelope's Copyright; the data's attribution
         * (`data`) and a map's basemap's follow it.
         */
        copyright: z.string().default(DEFAULT_COPYRIGHT),
        /** First part of every TraceId; tells which server instance answered. */
        instance: z.string().regex(/^[^/\s]+$/, 'must not contain slashes or spaces').default('shapeshot'),
      })
      .strict()
      .default({
        schemaNamespace: 'http://schemas.microsoft.com/search/local/ws/rest/v1',
        copyright: DEFAULT_COPYRIGHT,
        instance: 'shapeshot',
      }),
    basemaps: basemapsSchema,
    /** OGC API – Features under /ogc. */
    ogc: z
      .object({
        /** Most features one page of items holds; a larger `limit` is capped to it. */
        maxLimit: z.number().int().min(1).default(DEFAULT_OGC.maxLimit),
        /** Most vertices (as stored) one page of items, or one item, may hold; past it: 400. */
        maxPageVertices: z.number().int().min(1).default(DEFAULT_OGC.maxPageVertices),
        /**
         * The URL clients reach the service at, when a proxy stands between (TLS, a path
         * prefix): /ogc's links are made on it; without it, on the origin a request came to.
         */
        publicUrl: z.url({ protocol: /^https?$/ }).optional(),
      })
      .strict()
      .default(DEFAULT_OGC),
    http: z
      .object({
        /** Cache-Control of image and map answers (noCache=1 answers no-store; errors are never cached). */
        cacheControl: z.string().min(1).default(DEFAULT_CACHE_CONTROL),
      })
      .strict()
      .default({ cacheControl: DEFAULT_CACHE_CONTROL }),
    /** Send Server-Timing (milliseconds per stage of the work) with every answer of an operation. */
    serverTiming: z.boolean().default(false),
    /** Serve /metrics (Prometheus text, without a key, as /health and /ready) and count what it shows. */
    metrics: z.boolean().default(true),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  })
  .strict();

export type Config = z.infer<typeof configSchema>;
export type KeyConfig = z.infer<typeof keySchema>;
export type BasemapsConfig = z.infer<typeof basemapsSchema>;
