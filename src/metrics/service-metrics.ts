/**
 * What the service counts for /metrics, in a Prometheus registry of its own (never
 * prom-client's global one). What the job pool already keeps (its queue, its workers'
 * busy time, the feature cache's lookups on the workers) is read when scraped, and so are
 * the answers, refusals and cancellations, counted in plain maps as they happen
 * (request-tally.ts says why): a request costs a few map lookups.
 */
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { FEATURE_CACHE_HITS, FEATURE_CACHE_MISSES } from '../job-context/context.ts';
import type { RefusalReason } from '../http/admission.ts';
import type { SharedStoreHealth } from '../limits/limit-store.ts';
import type { ProviderMetrics } from '../plugin-contract/basemap-plugin.ts';
import type { PoolStats } from '../workers/worker-pool.ts';
import { createRequestTally } from './request-tally.ts';

/** Why a request's work stopped before its answer: its client left, or its time budget was spent. */
export type CancelCause = 'client_gone' | 'time_budget';

export interface ServiceMetrics {
  /** Content-Type of the exposition. */
  readonly contentType: string;
  /** Everything counted, in the Prometheus text format. */
  exposition(): Promise<string>;
  /** A request was answered: the route pattern it matched (never its path), its status and how long it took. */
  answered(route: string, status: number, seconds: number): void;
  refused(reason: RefusalReason): void;
  cancelled(cause: CancelCause): void;
  /** A request whose key was accepted was answered, with this many pictures: counted by the key's label (KeyGrant.label), never the key. */
  keyAnswered(label: string, pictures: number): void;
  /** Where a basemap provider counts its tiles (ProviderContext.metrics). */
  forProvider(provider: string): ProviderMetrics;
}

const PREFIX = 'shapeshot_';
/** Seconds: refusals and small images answer in the first buckets, the time budget (15 s by default) ends the last. */
const LATENCY_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 15];
const REFUSAL_REASONS: RefusalReason[] = ['queue_full', 'too_slow', 'key_concurrency', 'rate_limit', 'answers_unread', 'limit_store'];
const CANCEL_CAUSES: CancelCause[] = ['client_gone', 'time_budget'];
/**
 * Key labels with series of their own; the keys past them share OTHER_KEYS. Labels come from
 * the configuration, not from clients, but a configuration may hold thousands of keys, and
 * each label is a series for every scraper to keep (docs/configuration.md, "Quotas and usage").
 */
const MAX_KEY_LABELS = 100;
const OTHER_KEYS = 'other';

/** `limitStore`: the store of the keys' limits shared by instances (limits.store), when there is one. */
export function createServiceMetrics(drawing: { readonly stats: PoolStats }, limitStore?: SharedStoreHealth): ServiceMetrics {
  const registry = new Registry();
  const registers = [registry];

  const answers = createRequestTally({
    countName: `${PREFIX}http_requests_total`,
    countHelp: 'Requests answered, by route pattern and HTTP status (499: the client left first).',
    latencyName: `${PREFIX}http_request_duration_seconds`,
    latencyHelp: 'Time from a request to its answer, by route pattern.',
    buckets: LATENCY_BUCKETS,
  });
  // Every reason and cause present at 0 from the start, so that rates over them are defined before the first one.
  const refusals = tallyByLabel(registry, 'requests_rejected_total', 'Requests refused with 503 before any work: render queue full, too slow a wait for a worker, the key at its maxConcurrent, its rate limit, too many bytes of answers their clients have not read (limits.maxPendingAnswerBytes), or the limits store unreachable with limits.storeFailure "closed".', 'reason', REFUSAL_REASONS);
  const cancellations = tallyByLabel(registry, 'requests_cancelled_total', 'Requests whose work was stopped: the client left, or the time budget (limits.requestTimeoutMs) was spent.', 'cause', CANCEL_CAUSES);

  const byKey = keyTally(registry);

  poolGauge(registry, 'render_jobs_waiting', 'Drawing jobs waiting for a worker.', () => drawing.stats.waiting);
  poolGauge(registry, 'render_jobs_running', 'Drawing jobs handed to a worker and not yet answered.', () => drawing.stats.running);
  poolTotal(registry, 'render_worker_busy_seconds_total', 'Time the drawing workers spent at jobs.', () => drawing.stats.busyMs / 1000);
  poolTotal(registry, 'feature_cache_hits_total', 'Feature lookups the drawing workers answered from their cache of decoded shapes.', () => drawing.stats.counts[FEATURE_CACHE_HITS] ?? 0);
  poolTotal(registry, 'feature_cache_misses_total', 'Feature lookups the drawing workers had to decode from the file (noCache=1 requests do not look).', () => drawing.stats.counts[FEATURE_CACHE_MISSES] ?? 0);

  if (limitStore) {
    poolGauge(registry, 'limit_store_up', 'Whether the store of the keys’ limits shared by instances (limits.store) answers: 1, or 0 while each instance counts on its own (or refuses).', () => (limitStore.up() ? 1 : 0));
    poolTotal(registry, 'limit_store_failures_total', 'Calls to the limits store that failed or answered past limits.storeDeadlineMs.', limitStore.failures);
  }

  const tileCounter = (name: string, help: string) => new Counter({ name: `${PREFIX}${name}`, help, labelNames: ['provider'] as const, registers });
  const tileHits = tileCounter('tile_cache_hits_total', 'Basemap tiles (a WMS map image counts as one) a provider answered from its cache, in memory or on disk.');
  const tileMisses = tileCounter('tile_cache_misses_total', 'Basemap tiles a provider fetched from its server.');
  const tileErrors = tileCounter('tile_fetch_errors_total', 'Basemap tiles a provider could not fetch (no answer in time, an error, not an image), after retries.');

  const merged = Registry.merge([processMetrics(), registry]);
  return {
    contentType: merged.contentType,
    exposition: async () => (await merged.metrics()) + answers.exposition(),
    answered: (route, status, seconds) => answers.record(route, status, seconds),
    refused: (reason) => refusals.add(reason),
    cancelled: (cause) => cancellations.add(cause),
    keyAnswered: (label, pictures) => byKey.add(label, pictures),
    forProvider(provider) {
      const labels = { provider };
      tileHits.inc(labels, 0);
      tileMisses.inc(labels, 0);
      tileErrors.inc(labels, 0);
      return {
        tileCacheHit: () => tileHits.inc(labels),
        tileCacheMiss: () => tileMisses.inc(labels),
        tileFetchError: () => tileErrors.inc(labels),
      };
    },
  };
}

/** A counter by one label (its values known, or bounded by the caller), kept in a plain map and read when scraped. */
function tallyByLabel<Value extends string>(registry: Registry, name: string, help: string, label: string, values: readonly Value[]) {
  const counts = new Map<Value, number>(values.map((value) => [value, 0]));
  new Counter({
    name: `${PREFIX}${name}`,
    help,
    labelNames: [label],
    registers: [registry],
    collect() {
      this.reset();
      for (const [value, count] of counts) this.inc({ [label]: value }, count);
    },
  });
  return { add: (value: Value, amount = 1) => void counts.set(value, (counts.get(value) ?? 0) + amount) };
}

/** Requests and pictures by key label, at most MAX_KEY_LABELS of them (the first seen). */
function keyTally(registry: Registry) {
  const requests = tallyByLabel<string>(registry, 'key_requests_total', `Answers to requests whose key was accepted, by the key's name (else its hash's first digits; never the key); past ${MAX_KEY_LABELS} names, '${OTHER_KEYS}'.`, 'key_name', []);
  const pictures = tallyByLabel<string>(registry, 'key_pictures_total', "Pictures (images, maps, drawn legends) answered, by the key's name as key_requests_total has it.", 'key_name', []);
  const named = new Set<string>();
  return {
    add(label: string, drawn: number) {
      if (!named.has(label) && named.size < MAX_KEY_LABELS) named.add(label);
      const keyName = named.has(label) ? label : OTHER_KEYS;
      requests.add(keyName);
      if (drawn > 0) pictures.add(keyName, drawn);
    },
  };
}

/** A gauge read when scraped (the job pool's, the limits store's). */
function poolGauge(registry: Registry, name: string, help: string, value: () => number): void {
  new Gauge({
    name: `${PREFIX}${name}`,
    help,
    registers: [registry],
    collect() {
      this.set(value());
    },
  });
}

/** A counter whose total another part keeps (the job pool, the limits store): read when scraped. */
function poolTotal(registry: Registry, name: string, help: string, total: () => number): void {
  new Counter({
    name: `${PREFIX}${name}`,
    help,
    registers: [registry],
    collect() {
      this.reset();
      this.inc(total());
    },
  });
}

let processRegistry: Registry | undefined;

/**
 * CPU, memory, event-loop lag, GC: they describe the process, not a service, so they are
 * collected once per process (several services in one process, as in tests, would each
 * watch every GC otherwise).
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}
