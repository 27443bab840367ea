/**
 * The real app on a loopback port, in the test's own process: tests reach it over HTTP as a
 * client would, and can wait for what it does (an answer given, a job handed to a worker)
 * rather than for a time.
 */
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { buildApp } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { malformedAnswer } from '../../src/http/malformed.ts';
import { nodeRuntime } from '../../src/runtime/node.ts';
import type { FetchHandler } from '../../src/runtime/runtime.ts';
import { createServices } from '../../src/server/create-services.ts';
import type { Services } from '../../src/app-services.ts';

export const TEST_KEY = 'test-key-0123456789';

export interface TestServer {
  url: (pathAndQuery: string) => string;
  /** The running services, for looking at what the job pool did. */
  services: Services;
  /** Every line the server logged (at the configured level). */
  log: string[];
  /**
   * Resolves with the status of the next answer the app gives to a request whose path and
   * query contain `part` (its work is over then, and counted in /metrics). Ask before the
   * request is sent.
   */
  nextAnswer(part: string): Promise<number>;
  /** Resolves when the job pool next hands a job of `kind` to a worker: the request's work has begun. Ask before the request is sent. */
  nextJob(kind: string): Promise<void>;
  close(): Promise<void>;
}

/** Starts the real app on a loopback port with Node's runtime, as a user would reach it. */
export async function startServer(config: Record<string, unknown> = {}): Promise<TestServer> {
  const parsed = parseConfig({ port: 0, logLevel: 'silent', keys: [{ key: TEST_KEY }], ...config });
  const log: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      log.push(String(chunk));
      done();
    },
  });
  const services = await createServices(parsed, pino({ level: parsed.logLevel }, sink));
  const app = buildApp(services);
  const answerWatchers = new Set<(url: string, status: number) => void>();
  const fetchAndTell: FetchHandler = async (request, delivery) => {
    const response = await app.fetch(request, delivery);
    for (const watcher of answerWatchers) watcher(request.url, response.status);
    return response;
  };
  const listener = await nodeRuntime.serve(fetchAndTell, {
    hostname: '127.0.0.1',
    port: 0,
    answerWithinMs: parsed.limits.requestTimeoutMs,
    writeStallMs: parsed.limits.writeStallMs,
    answerMalformed: malformedAnswer(parsed.envelope, parsed.envelope.instance),
  });
  return {
    url: (pathAndQuery) => `${listener.origin}${pathAndQuery}`,
    services,
    log,
    nextAnswer: (part) =>
      new Promise((resolve) => {
        const watcher = (url: string, status: number) => {
          if (!url.includes(part)) return;
          answerWatchers.delete(watcher);
          resolve(status);
        };
        answerWatchers.add(watcher);
      }),
    nextJob: (kind) =>
      new Promise((resolve) => {
        const stop = services.jobs.onJobHandedOver((handed) => {
          if (handed !== kind) return;
          stop();
          resolve();
        });
      }),
    async close() {
      await listener.close();
      await services.close();
    },
  };
}

/** An images request for the test key. */
export function imagesUrl(server: TestServer, query: Record<string, string | number>): string {
  const params = new URLSearchParams({ key: TEST_KEY, ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
  return server.url(`/REST/v1/shapefiles/images?${params}`);
}
