/**
 * A small HTTP server on loopback that serves files held in memory by range requests, as
 * nginx does, and that a test steers request by request: answer, hold until the test says
 * go, never answer, fail with a 500, or send the whole file (200) to a range request. It
 * records every request it receives (method, path, Range) and tells the test when one
 * arrives or its client goes away, so that tests wait for those events, not for times.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Behaviour = 'answer' | 'hold' | 'never' | 'fail' | 'whole';

export interface ReceivedRequest {
  method: string;
  path: string;
  range: string | undefined;
  /** Resolves when the client goes away before the answer is complete (an abort). */
  clientGone: Promise<void>;
  /** For a held request: answer it now. */
  release(): void;
}

export interface RangeServer {
  /** The base URL, ending in '/'. */
  url: string;
  /** Every request received, oldest first. */
  received: ReceivedRequest[];
  /** Resolves with the next request to arrive (ask before it is sent). */
  nextRequest(): Promise<ReceivedRequest>;
  /** How requests from now on are treated, in order of arrival; the last one given stands for all after it. */
  behave(...behaviours: Behaviour[]): void;
  stop(): Promise<void>;
}

const LAST_MODIFIED = new Date('2024-05-01T12:00:00Z').toUTCString();

export async function startRangeServer(files: Record<string, Uint8Array>): Promise<RangeServer> {
  const received: ReceivedRequest[] = [];
  const waiting: ((request: ReceivedRequest) => void)[] = [];
  let behaviours: Behaviour[] = ['answer'];

  const answer = (request: IncomingMessage, response: ServerResponse, behaviour: Behaviour) => {
    if (behaviour === 'fail') return void response.writeHead(500).end('failing on purpose');
    const name = decodeURIComponent((request.url ?? '/').slice(1));
    const bytes = files[name];
    if (bytes === undefined) return void response.writeHead(404).end();
    const headers = { 'last-modified': LAST_MODIFIED, 'accept-ranges': 'bytes' };
    const match = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
    if (behaviour === 'whole' || match === null || request.method === 'HEAD') {
      return void response.writeHead(200, { ...headers, 'content-length': bytes.length }).end(request.method === 'HEAD' ? undefined : bytes);
    }
    const first = Number(match[1]);
    if (first >= bytes.length) return void response.writeHead(416, { 'content-range': `bytes */${bytes.length}` }).end();
    const last = Math.min(Number(match[2]), bytes.length - 1);
    response.writeHead(206, { ...headers, 'content-range': `bytes ${first}-${last}/${bytes.length}`, 'content-length': last - first + 1 });
    response.end(bytes.subarray(first, last + 1));
  };

  const server = createServer((request, response) => {
    const behaviour = behaviours.length > 1 ? behaviours.shift()! : behaviours[0];
    let release = () => answer(request, response, behaviour);
    const clientGone = new Promise<void>((resolve) => response.once('close', () => !response.writableFinished && resolve()));
    const entry: ReceivedRequest = { method: request.method ?? '', path: request.url ?? '', range: request.headers.range, clientGone, release: () => release() };
    received.push(entry);
    for (const resolve of waiting.splice(0)) resolve(entry);
    if (behaviour === 'answer' || behaviour === 'fail' || behaviour === 'whole') answer(request, response, behaviour);
    else if (behaviour === 'never') release = () => undefined;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    received,
    nextRequest: () => new Promise((resolve) => waiting.push(resolve)),
    behave(...next) {
      behaviours = next;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
