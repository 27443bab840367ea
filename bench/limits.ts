/**
 * What a key's limits cost (docs/configuration.md, "Limits shared by instances"; issue 30:
 * key checks, a signature and a Redis round trip at most 0.3 ms of CPU a request, and the
 * images row at c=8 within 10 % with limits.store). Two parts:
 *
 * - CPU per request through the app in this process (process.cpuUsage over many requests, 8
 *   at a time, every thread of the process: its GCs and ioredis too, not Redis's own CPU; the
 *   median of ROUNDS runs of each case, the cases in turns): a
 *   request that passes the key and its limits, admission and validation and ends in a 404
 *   at the access step, with no key rules; with a rate limit, maxConcurrent, a quota and a
 *   signed URL counted in memory; the same in Redis; and no rules with usage counted in Redis.
 * - The images operation at c=8 (PNG, random parcels), served by a process of its own, with
 *   the same key rules counted in memory and in Redis.
 *
 * Redis is Debian's redis-server on loopback (test/support/redis-server.ts).
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { buildApp } from '../src/app.ts';
import { parseConfig } from '../src/config/load.ts';
import type { AnswerDelivery } from '../src/http/answer-delivery.ts';
import { createServices } from '../src/server/create-services.ts';
import { startRedisServer } from '../test/support/redis-server.ts';
import { measureRow, median } from './load.ts';
import { serverCommand, startServerProcess, type RuntimeName } from './server-process.ts';

export interface LimitsBenchOptions {
  runtime: RuntimeName;
  dataDir: string;
  features: number;
  seconds: number;
  /** Requests per in-process run. */
  requests: number;
}

const KEY = 'limits-bench-key-0123';
const SECRET = 'limits-bench-signing-secret';
/** Limits no run reaches: every request is counted and checked, none refused. */
const RULES = { rateLimit: { perSecond: 1_000_000, burst: 1_000_000 }, maxConcurrent: 1000, quota: { perDay: 1_000_000_000 } };
/** Requests in flight at once in the in-process runs, as the images row's 8 connections. */
const IN_FLIGHT = 8;
/** Measured runs of each case, in turns; the median is shown. */
const ROUNDS = 5;

export async function runLimitsBench({ runtime, dataDir, features, seconds, requests }: LimitsBenchOptions): Promise<{ cpu: string[][]; images: string[][] }> {
  const redis = await startRedisServer();
  try {
    const store = { store: redis.url };
    const notFound = `/REST/v1/shapefiles/images?file=nowhere&fid=0&format=json&key=${KEY}`;
    const signed = `${notFound}&signature=${createHmac('sha256', SECRET).update(notFound).digest('base64url')}`;
    const cases: [string, Record<string, unknown>, string][] = [
      ['no key rules', { keys: [{ key: KEY }] }, notFound],
      ['rules in memory', { keys: [{ key: KEY, ...RULES, signingSecret: SECRET }] }, signed],
      ['rules in Redis', { keys: [{ key: KEY, ...RULES, signingSecret: SECRET }], limits: store }, signed],
      ['no rules, usage in Redis', { keys: [{ key: KEY }], limits: store }, notFound],
    ];
    // Every case's app made first, then measured in turns: a machine whose load changes meanwhile weighs on each alike.
    const runs = await Promise.all(cases.map(([, config, path]) => requestRunner({ dataDir, ...config }, path)));
    const measured: number[][] = cases.map(() => []);
    try {
      for (const run of runs) await run(requests); // warm-up
      for (let round = 0; round < ROUNDS; round++) {
        for (const [i, run] of runs.entries()) measured[i].push(await cpuMicros(() => run(requests)) / requests);
      }
    } finally {
      await Promise.all(runs.map((run) => run.close()));
    }
    const medians = measured.map(median);
    const cpu = cases.map(([label], i) => [label, medians[i].toFixed(1), difference(medians[i] - medians[0])]);

    const images: string[][] = [];
    const paths = Array.from({ length: 20_000 }, () => `/REST/v1/shapefiles/images?file=parcels&fid=${Math.floor(Math.random() * features)}&format=png&key=${KEY}`);
    for (const [label, limits] of [
      ['png, rules in memory', {}],
      ['png, rules in Redis', store],
    ] as const) {
      images.push(await imagesRow(runtime, { dataDir, keys: [{ key: KEY, ...RULES }], limits, logLevel: 'warn' }, label, paths, seconds));
    }
    return { cpu, images };
  } finally {
    await redis.stop();
  }
}

/** An app made of `config`, and a run of `total` requests of `path` through it, IN_FLIGHT at a time. */
async function requestRunner(config: Record<string, unknown>, path: string): Promise<((total: number) => Promise<void>) & { close(): Promise<void> }> {
  const services = await createServices(parseConfig({ logLevel: 'warn', render: { workers: 1 }, ...config }), pino({ level: 'warn' }));
  const app = buildApp(services);
  // What a runtime's server hands the app: nothing is held, so an answer is written at once.
  const delivery = (): AnswerDelivery => ({ whenWritten: (written) => written(), reserve: () => undefined, pendingAnswerBytes: 0 });
  const url = `http://127.0.0.1${path}`;
  const run = async (total: number) => {
    let sent = 0;
    const client = async () => {
      while (sent++ < total) {
        const answer = await app.fetch(new Request(url), delivery());
        if (answer.status !== 404) throw new Error(`${path} answered ${answer.status}, not 404: ${await answer.text()}`);
        await answer.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, client));
  };
  return Object.assign(run, { close: () => services.close() });
}

/** Microseconds of this process's CPU (every thread's, user and system) that `work` took. */
async function cpuMicros(work: () => Promise<void>): Promise<number> {
  const before = process.cpuUsage();
  await work();
  const { user, system } = process.cpuUsage(before);
  return user + system;
}

const difference = (micros: number) => `${micros >= 0 ? '+' : ''}${micros.toFixed(1)}`;

/** The images row at c=8 of a server process of its own, configured by `config`. */
async function imagesRow(runtime: RuntimeName, config: Record<string, unknown>, label: string, paths: string[], seconds: number): Promise<string[]> {
  const configFile = join(mkdtempSync(join(tmpdir(), 'shapeshot-bench-limits-')), 'config.json');
  writeFileSync(configFile, JSON.stringify(config));
  const server = await startServerProcess(serverCommand(runtime), { SHAPESHOT_CONFIG: configFile, SHAPESHOT_PORT: '0' }, paths[0]);
  try {
    await measureRow(server, label, paths, 8, 2); // warm-up
    return await measureRow(server, label, paths, 8, seconds);
  } finally {
    await server.stop();
  }
}
