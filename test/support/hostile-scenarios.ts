/**
 * The two scenarios of issue 29 that run on every runtime (Node in
 * test/sources/hostile-sources/, Deno and Bun in its runtimes test): a source that stalls
 * and trickles, and a bucket of thousands of shapefiles. Each starts shapeshot as a process
 * of its own on the runtime given, drives it as clients would while another process times
 * its /health, and asserts what the clients, the source and the process show, softly, so
 * that one run tells every way the scenario fails.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { RuntimeName } from '../../bench/server-process.ts';
import {
  COLLECTIONS_PAGES,
  DEADLINE_SLACK_MS,
  MAX_HEADS_IN_FLIGHT,
  MAX_REQUESTS_IN_FLIGHT,
  MAX_RESIDENT_GROWTH_BYTES,
  pageLink,
  sourceConfig,
  type CollectionsPage,
} from './at-size-expectations.ts';
import { describeHealth, startHealthPoll, type HealthReport } from './health-poll.ts';
import { startHostileSource, type HostileSource, type Protocol, type SeenRequest } from './hostile-source.ts';
import { processMemory } from './process-memory.ts';
import { describeAnswer, startShapeshot, type Answered, type ShapeshotProcess, type Unanswered } from './shapeshot-process.ts';
import { until } from './until.ts';

const DATA = fileURLToPath(new URL('../../data/', import.meta.url));

/** A sample file of data/, as bytes. */
export function sampleBytes(name: string, part: string): Uint8Array {
  return new Uint8Array(readFileSync(`${DATA}${name}.${part}`));
}

/** Puts the sample shapefile `from` into the source as `as`, each of `parts`. */
export function putSample(source: HostileSource, as: string, from: string, parts = ['shp', 'shx', 'dbf', 'prj', 'cpg']): void {
  for (const part of parts) source.put(`${as}.${part}`, sampleBytes(from, part));
}

/** The health report's verdict, asserted softly: every /health answered 200, none past 100 ms of the server's own time. */
export function expectHealthy(health: HealthReport): void {
  const line = describeHealth(health);
  expect.soft(health.answers, line).toBeGreaterThan(0);
  expect.soft(health.failed, line).toEqual([]);
  expect.soft(health.slow, line).toEqual([]);
}

/** Settles with how `request` ended, or 'still open' if it has not by `byMs` (performance.now()): a bound on a wait, not a wait for a time. */
export function endingBy(request: SeenRequest, byMs: number): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('still open'), Math.max(0, byMs - performance.now()));
    void request.ended.then((ending) => {
      clearTimeout(timer);
      resolve(`${ending.by} after ${(ending.at - request.receivedAt).toFixed(0)} ms`);
    });
  });
}

/**
 * Every request the source received since index `from` of its log that it did not answer
 * (held, trickled) was ended by us within `timeoutMs` (+ slack) of its arrival; a list of
 * those that were not, for the assertion.
 */
export async function requestsNotEndedInTime(source: HostileSource, from: number, timeoutMs: number): Promise<string[]> {
  const late: string[] = [];
  for (const request of source.requests.slice(from)) {
    const ending = await endingBy(request, request.receivedAt + timeoutMs + DEADLINE_SLACK_MS);
    const inTime = ending.startsWith('answered') || (ending.startsWith('client') && Number(/after (\d+)/.exec(ending)![1]) <= timeoutMs + DEADLINE_SLACK_MS);
    if (!inTime) late.push(`${request.method} ${request.kind}${request.name ? ` of ${request.name}` : ''}${request.range ? ` ${request.range}` : ''}, received ${(performance.now() - request.receivedAt).toFixed(0)} ms ago: ${ending}`);
  }
  return late;
}

/** Whether an answer is the 503 that names `source` (its describe()), and not the service's own "busy". */
export function namesSource(answer: Answered | Unanswered, source: HostileSource): boolean {
  return answer.status === 503 && answer.text.includes(source.description);
}

const isBusy = (answer: Answered | Unanswered) => answer.status === 503 && /busy/i.test(answer.text);

// ---------------------------------------------------------------------------------------------
// Scenario 1: a source that stalls after its headers, and a listing that trickles.
// ---------------------------------------------------------------------------------------------

/**
 * The request budget and the source's deadline: the default's proportions (15 s against
 * 2 × 10 s: a listing tried twice outlives the request), made short.
 */
export const STALL_SETTINGS = { requestTimeoutMs: 2000, sourceTimeoutMs: 1800 };

const images = (query: string) => `/REST/v1/shapefiles/images?format=json&${query}`;

/**
 * shapeshot on `runtime` over an HTTP source of the sample countries (one worker, a queue of
 * four: five requests at work at most), and then, with /health timed throughout:
 * 1. the listing trickles: a name not in the catalog is answered within the request's budget,
 *    404 (not in the catalog it has) or 503 naming the source;
 * 2. every request stalls after its headers (listing, HEAD, range GET): a known name's
 *    feature not yet read is a 503 naming the source within the budget;
 * 3. `waves` waves of twenty such requests at once (unknown names, uncached features), more
 *    than the five admission lets in: each answered within the budget (404, 503 naming the
 *    source, or 503 busy from admission), none left hanging;
 * 4. the source behaves again: a feature not yet read, a known one and /ogc/collections are
 *    200 (no admission slot was kept by the stalls).
 * What the source saw: each request it held was ended by us within the source's deadline.
 */
export async function stalledSourceScenario(runtime: RuntimeName, { waves = 5 }: { waves?: number } = {}): Promise<void> {
  const { requestTimeoutMs, sourceTimeoutMs } = STALL_SETTINGS;
  const within = requestTimeoutMs + DEADLINE_SLACK_MS;
  const source = await startHostileSource('http');
  putSample(source, 'countries', 'countries');
  let shapeshot: ShapeshotProcess | undefined;
  let poll: Awaited<ReturnType<typeof startHealthPoll>> | undefined;
  try {
    shapeshot = await startShapeshot(runtime, {
      ...sourceConfig(source, { timeoutMs: sourceTimeoutMs }),
      // Every request asks the source for its files' versions: a stalled HEAD (or listing) is met by every request.
      fileCheckMs: 0,
      limits: { requestTimeoutMs },
      render: { workers: 1, maxQueue: 4 },
    });
    const server = shapeshot;
    // A cold first request (workers starting, the openings being fetched) may pass so short a budget: asked until it is answered.
    await until(async () => (await server.get(images('file=countries&fid=0'), within * 4)).status === 200);
    poll = await startHealthPoll(server.origin, server.pid);
    // Features 1..240 have not been read: each costs a range request of its own.
    let nextFid = 1;

    const { health } = await poll.during(`stalled source on ${runtime}`, async () => {
      // 1. The listing trickles.
      source.script((request) => (request.kind === 'listing' ? 'trickle' : undefined));
      let from = source.requests.length;
      const unknown = await server.get(images('file=nowhere-first&fid=0'), within * 4);
      expect.soft(unknown.ms, `a name not in the catalog while the listing trickles: ${describeAnswer(unknown)}`).toBeLessThanOrEqual(within);
      expect.soft(unknown.status === 404 || namesSource(unknown, source), `404, or 503 naming ${source.description}: ${describeAnswer(unknown)}`).toBe(true);
      expect.soft(await requestsNotEndedInTime(source, from, sourceTimeoutMs), 'trickled listings ended by us within the deadline').toEqual([]);

      // 2. Everything stalls after its headers.
      source.script((request) => (request.kind === 'listing' ? 'trickle' : 'stall'));
      from = source.requests.length;
      const known = await server.get(images(`file=countries&fid=${nextFid++}`), within * 4);
      expect.soft(known.ms, `a known feature while the source stalls: ${describeAnswer(known)}`).toBeLessThanOrEqual(within);
      expect.soft(namesSource(known, source), `503 naming ${source.description}: ${describeAnswer(known)}`).toBe(true);
      expect.soft(source.requests.length, 'the source was asked').toBeGreaterThan(from);
      expect.soft(await requestsNotEndedInTime(source, from, sourceTimeoutMs), 'stalled requests ended by us within the deadline').toEqual([]);

      // 3. Waves of requests, more at once than admission lets in.
      from = source.requests.length;
      const wrong: string[] = [];
      let refusedBusy = 0;
      for (let wave = 0; wave < waves; wave++) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            server.get(images(i % 2 === 0 ? `file=nowhere-${wave}-${i}&fid=0` : `file=countries&fid=${nextFid++}`), within * 4),
          ),
        );
        for (const answer of answers) {
          if (isBusy(answer)) refusedBusy++;
          const acceptable = answer.status === 404 || namesSource(answer, source) || isBusy(answer);
          if (!acceptable || answer.ms > within) wrong.push(`wave ${wave}: ${describeAnswer(answer, 160)}`);
        }
      }
      expect.soft(wrong, `${waves * 20} requests while the source stalls: each within ${within} ms, 404, 503 naming the source or 503 busy`).toEqual([]);
      expect.soft(refusedBusy, 'admission turned some away (twenty at once, five admitted)').toBeGreaterThan(0);
      expect.soft(await requestsNotEndedInTime(source, from, sourceTimeoutMs), 'stalled requests ended by us within the deadline').toEqual([]);

      // 4. The source behaves again: the service serves.
      source.script(undefined);
      for (const path of [images(`file=countries&fid=${nextFid++}`), images('file=countries&fid=0'), '/ogc/collections?f=json']) {
        const answer = await server.get(path, within * 4);
        expect.soft(answer.status, `once the source behaves, ${path}: ${describeAnswer(answer)}`).toBe(200);
      }
    });
    expectHealthy(health);
  } finally {
    poll?.stop();
    shapeshot?.stop();
    await source.stop();
  }
}

// ---------------------------------------------------------------------------------------------
// Scenario 2: a bucket of thousands of shapefiles.
// ---------------------------------------------------------------------------------------------

export interface ThousandsOptions {
  protocol: Protocol;
  /** Shapefiles in the bucket. */
  shapefiles: number;
  /** Their files (default .shp, .shx, .dbf: the sample country centres, 250 points). */
  parts?: string[];
  /**
   * The request budget (limits.requestTimeoutMs; default 10 s, two thirds of the default's):
   * a page of ten costs the same for 3,000 files or 100,000, and the page asked without
   * `limit` (up to 1,000 collections) must fit too.
   */
  requestTimeoutMs?: number;
}

/** Five digits and more, so names sort as numbers: f00000, f00001, … */
export const bucketName = (index: number) => `f${String(index).padStart(6, '0')}`;

/**
 * shapeshot on `runtime` over a source of `shapefiles` shapefiles (the same small files under
 * as many names; each answer takes the store 5 ms, so that what is sent at once is seen at
 * once), and then, with /health timed throughout: a page of ten of /ogc/collections, the
 * page its `next` link names, its `prev`, the last page, and the collections asked without
 * `limit`, each 200 within the budget; at most a few HEADs (and few requests of any kind) in flight at the source at any
 * time; the process's memory bounded; a feature of the last file drawn.
 */
export async function thousandsOfFilesScenario(runtime: RuntimeName, { protocol, shapefiles, parts = ['shp', 'shx', 'dbf'], requestTimeoutMs = 10_000 }: ThousandsOptions): Promise<void> {
  const within = requestTimeoutMs + DEADLINE_SLACK_MS;
  const source = await startHostileSource(protocol, { latencyMs: 5 });
  const bytes = Object.fromEntries(parts.map((part) => [part, sampleBytes('country_centres', part)]));
  for (let i = 0; i < shapefiles; i++) for (const part of parts) source.put(`${bucketName(i)}.${part}`, bytes[part], { modifiedMs: Date.parse('2024-05-01T12:00:00Z') });
  let shapeshot: ShapeshotProcess | undefined;
  let poll: Awaited<ReturnType<typeof startHealthPoll>> | undefined;
  try {
    shapeshot = await startShapeshot(runtime, { ...sourceConfig(source), limits: { requestTimeoutMs } }, { AWS_ACCESS_KEY_ID: 'hostile', AWS_SECRET_ACCESS_KEY: 'hostile-secret', AWS_REGION: 'us-east-1' });
    const server = shapeshot;
    poll = await startHealthPoll(server.origin, server.pid);
    const residentBefore = server.residentBytes();
    source.resetPeaks();
    const from = source.requests.length;

    const { health } = await poll.during(`${shapefiles} shapefiles over ${protocol} on ${runtime}`, async () => {
      const asJson = async (path: string): Promise<CollectionsPage | undefined> => {
        const answer = await server.get(path, within);
        expect.soft(answer.status, `${path}: ${describeAnswer(answer)}`).toBe(200);
        expect.soft(answer.ms, `${path} within its budget: ${describeAnswer(answer)}`).toBeLessThanOrEqual(within);
        return answer.status === 200 ? (JSON.parse((answer as Answered).text) as CollectionsPage) : undefined;
      };
      const ids = (page: CollectionsPage | undefined) => page?.collections.map((collection) => collection.id);

      const first = await asJson(COLLECTIONS_PAGES.path(10, 0));
      expect.soft(ids(first), 'the first page of ten').toEqual(Array.from({ length: 10 }, (_, i) => bucketName(i)));
      const nextPath = first && pageLink(first, 'next');
      expect.soft(nextPath, 'the first page links the next').toBeDefined();
      if (nextPath) {
        const second = await asJson(nextPath);
        expect.soft(ids(second), 'the page its next link names').toEqual(Array.from({ length: 10 }, (_, i) => bucketName(10 + i)));
        const prevPath = second && pageLink(second, 'prev');
        expect.soft(prevPath, 'the second page links the first').toBeDefined();
        if (prevPath) expect.soft(ids(await asJson(prevPath)), 'the page its prev link names').toEqual(ids(first));
      }
      if (first) {
        const last = await asJson(COLLECTIONS_PAGES.path(10, shapefiles - 10));
        expect.soft(ids(last), 'the last page').toEqual(Array.from({ length: 10 }, (_, i) => bucketName(shapefiles - 10 + i)));
        if (last) expect.soft(pageLink(last, 'next'), 'the last page links no next').toBeUndefined();
      }
      const whole = await asJson('/ogc/collections?f=json');
      if (whole) {
        expect.soft(whole.collections.length, 'a page asked without limit').toBeLessThanOrEqual(COLLECTIONS_PAGES.maxDefaultPage);
        expect.soft(pageLink(whole, 'next'), 'a page without limit, of fewer than all, links the next').toBeDefined();
      }
      // A feature of the last file, unless the service is still stuck with the page before (each such ask costs the whole budget).
      if (whole || first) {
        const feature = await server.get(images(`file=${bucketName(shapefiles - 1)}&fid=7`), within);
        expect.soft(feature.status, `a feature of the last file: ${describeAnswer(feature)}`).toBe(200);
      }
    });
    expectHealthy(health);
    const seen = source.requests.slice(from);
    const counts = ['listing', 'head', 'range', 'get'].map((kind) => `${kind} ${seen.filter((request) => request.kind === kind).length}`).join(', ');
    expect.soft(source.peakInFlight('head'), `HEADs in flight at once at the source (requests seen: ${counts})`).toBeLessThanOrEqual(MAX_HEADS_IN_FLIGHT);
    expect.soft(source.peakInFlight(), `requests in flight at once at the source (requests seen: ${counts})`).toBeLessThanOrEqual(MAX_REQUESTS_IN_FLIGHT);
    const peak = processMemory(server.pid)?.peakResidentBytes ?? Number.NaN;
    const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
    expect
      .soft(peak - residentBefore, `resident set ${mb(residentBefore)} before the pages, ${mb(peak)} at its peak (VmHWM) after`)
      .toBeLessThanOrEqual(MAX_RESIDENT_GROWTH_BYTES);
  } finally {
    poll?.stop();
    shapeshot?.stop();
    await source.stop();
  }
}
