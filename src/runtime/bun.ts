/**
 * Serving on Bun, for src/server/bun.ts: Bun.serve, with its idle timeout as the limit on
 * both the app's work and a client that stops reading its answer.
 */
import { httpOrigin, type FetchHandler, type Runtime } from './runtime.ts';
import { WebAnswers } from './web-answers.ts';

/** The part of Bun's global API used here (the project type-checks with Node's types). */
interface BunServer {
  hostname: string;
  port: number;
  /** This request's connection closes after this many seconds without a byte read or written (0: never). */
  timeout(request: Request, seconds: number): void;
  stop(): Promise<void>;
}
declare const Bun: {
  version: string;
  serve(options: {
    hostname: string;
    port: number;
    idleTimeout: number;
    fetch(request: Request, server: BunServer): Promise<Response>;
  }): BunServer;
};

/** Bun's idleTimeout is in whole seconds, at most 255. */
const MAX_IDLE_SECONDS = 255;
/**
 * Bun checks idle timeouts on a grid of 4 s that is not aligned with when a timeout is set:
 * one of N s fires after 4·(⌈N/4⌉ − 1) to 4·⌈N/4⌉ s, as early as 80 ms for N ≤ 4
 * (oven-sh/bun#33610). The work's timeout is set this much longer so that it never fires
 * before the app's own deadline.
 */
const IDLE_GRID_SECONDS = 4;

/**
 * Bun: its native HTTP server, Bun.serve. Its idle timeout ends a connection that neither
 * reads nor writes for that long, also while it waits for a client to take an answer: set
 * per request once the app has answered, it is the write-stall limit. It counts whole
 * seconds, checked every 4 s, so a stalled client is cut up to 4 s past writeStallMs. Set per
 * request, it is set on the connection and may stay there: each request sets the work's again
 * first, so that a later request on a kept-alive connection is not cut off by the shorter
 * stall limit while its app works.
 */
export const bunRuntime: Runtime = {
  name: `Bun ${Bun.version}`,
  async serve(fetch: FetchHandler, { hostname, port, answerWithinMs, writeStallMs }) {
    // While the app works nothing is written: Bun's default 10 s could cut off a request the app is still allowed to work on.
    const idleTimeout = Math.min(MAX_IDLE_SECONDS, Math.ceil(answerWithinMs / 1000) + 1 + IDLE_GRID_SECONDS);
    const stallSeconds = Math.min(MAX_IDLE_SECONDS, Math.ceil(writeStallMs / 1000));
    const answers = new WebAnswers();
    const server = Bun.serve({
      hostname,
      port,
      idleTimeout,
      async fetch(request, server) {
        server.timeout(request, idleTimeout);
        const answer = answers.answer();
        const response = await answer.make(fetch, request);
        server.timeout(request, stallSeconds);
        // Bun aborts the request's signal when its connection closes before the answer is written; perhaps while the app worked.
        return answer.handOver(response, (end) => (request.signal.aborted ? end() : request.signal.addEventListener('abort', end, { once: true })));
      },
    });
    return { origin: httpOrigin(server.hostname, server.port), close: () => server.stop() };
  },
};
