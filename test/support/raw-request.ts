/**
 * Sends a request exactly as a test wrote it (its target already percent-encoded, odd bytes
 * and all, which fetch would normalize) on a connection of its own, and tells the moments a
 * test orders requests by: when the request was fully written, when its answer came. Every
 * request has a client-side abort after generous seconds: a hang is a failure, not a wait.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface RawRequest {
  method: string;
  /** Path and query as sent on the request line. */
  target: string;
  headers: Record<string, string>;
}

export type RawOutcome =
  | { kind: 'answer'; status: number; headers: IncomingHttpHeaders; body: Buffer }
  /** No answer: the connection failed or closed early, or the abort came first. */
  | { kind: 'failed'; reason: string };

export interface SentRequest {
  /** Resolves once the request is written to the server's socket. */
  written: Promise<void>;
  outcome: Promise<RawOutcome>;
}

/** Sends `request` to `origin` (http://host:port); gives up with a 'failed' outcome after `abortAfterMs`. */
export function sendRaw(origin: string, request: RawRequest, abortAfterMs: number): SentRequest {
  const { hostname, port } = new URL(origin);
  let markWritten!: () => void;
  const written = new Promise<void>((resolve) => (markWritten = resolve));
  const outcome = new Promise<RawOutcome>((resolve) => {
    const done = (result: RawOutcome) => {
      clearTimeout(abort);
      markWritten();
      resolve(result);
    };
    const client = httpRequest({ hostname, port, method: request.method, path: request.target, headers: request.headers, agent: false });
    const abort = setTimeout(() => {
      client.destroy();
      done({ kind: 'failed', reason: `no answer within ${abortAfterMs} ms (client-side abort)` });
    }, abortAfterMs);
    client.on('finish', markWritten);
    client.on('error', (error) => done({ kind: 'failed', reason: `connection failed: ${error.message}` }));
    client.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', (error) => done({ kind: 'failed', reason: `answer cut off: ${error.message}` }));
      response.on('end', () => done({ kind: 'answer', status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    });
    client.end();
  });
  return { written, outcome };
}

export interface ProbedOutcome {
  heavy: RawOutcome;
  probe: RawOutcome;
  /** Which answer arrived first. */
  first: 'heavy' | 'probe';
}

/**
 * Sends `heavy`, and once it is written (the server is at it, or has answered already) sends
 * `probe`: both answers, and which came first. No timer decides anything but the aborts.
 */
export async function sendWithProbe(origin: string, heavy: RawRequest, probe: RawRequest, abortAfterMs: { heavy: number; probe: number }): Promise<ProbedOutcome> {
  let first: 'heavy' | 'probe' | undefined;
  const heavySent = sendRaw(origin, heavy, abortAfterMs.heavy);
  const heavyOutcome = heavySent.outcome.then((outcome) => ((first ??= 'heavy'), outcome));
  await heavySent.written;
  const probeOutcome = sendRaw(origin, probe, abortAfterMs.probe).outcome.then((outcome) => ((first ??= 'probe'), outcome));
  const [heavyResult, probeResult] = await Promise.all([heavyOutcome, probeOutcome]);
  return { heavy: heavyResult, probe: probeResult, first: first! };
}
