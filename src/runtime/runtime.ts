/**
 * The one place where the three runtimes differ (their HTTP servers), as an interface that
 * each runtime's entry point fills, so that the rest of the service is written once.
 */
import type { AnswerDelivery } from '../http/answer-delivery.ts';
import type { MalformedAnswer } from '../http/malformed.ts';

/**
 * What differs between Node, Deno and Bun, filled by each runtime's entry point. Only
 * serving differs: files, timers, signals and worker threads go through node:fs,
 * setTimeout, process and node:worker_threads, which all three implement alike (the
 * runtimes smoke test holds them to it), and resvg is picked by what loads, not by runtime.
 */
export interface Runtime {
  /** Name and version, for the start-up message. */
  name: string;
  /** Serves `fetch` on `hostname`:`port` (0: a free port) until close(). */
  serve(fetch: FetchHandler, options: ServeOptions): Promise<Listener>;
}

/** The app: each request comes with what the server tells it about the answer's writing. */
export type FetchHandler = (request: Request, delivery: AnswerDelivery) => Response | Promise<Response>;

export interface ServeOptions {
  hostname: string;
  port: number;
  /** The longest the app may take to answer; the server must not drop a connection sooner. */
  answerWithinMs: number;
  /** The answer to a request the server's parser refuses (too large, not HTTP), where the runtime lets us give one. */
  answerMalformed: MalformedAnswer;
  /** An answer whose client takes no byte of it for this long is dropped, its connection closed where the runtime lets us. */
  writeStallMs: number;
  /** Told of each answer dropped because its client stopped reading, where the runtime tells (not Bun). */
  onStall?(): void;
}

export interface Listener {
  /** Where the server listens, e.g. http://127.0.0.1:3000. */
  origin: string;
  /** Stops accepting connections; settles once the open ones are answered. */
  close(): Promise<void>;
}

/** http://host:port, with an IPv6 address in brackets. */
export function httpOrigin(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
