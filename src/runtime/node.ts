/**
 * Serving on Node, for src/server/node.ts: node:http through Hono's adapter, with the answers
 * followed until written, a graceful close, and our envelope for requests node:http refuses.
 */
import { getRequestListener } from '@hono/node-server';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { MalformedAnswer, MalformedStatus } from '../http/malformed.ts';
import { MAX_HEAD_BYTES } from '../http/request-size.ts';
import { FORMATS, type Format } from '../params/fields.ts';
import { NodeAnswers, type HonoListener } from './node-answers.ts';
import { httpOrigin, type FetchHandler, type Runtime } from './runtime.ts';

/**
 * Node: node:http through Hono's adapter, whose request listener is wrapped so that each
 * answer is followed until it is written (node-answers.ts).
 */
export const nodeRuntime: Runtime = {
  name: `Node ${process.version}`,
  serve: (fetch, { hostname, port, answerMalformed, writeStallMs, onStall }) =>
    new Promise((resolve, reject) => {
      const answers = new NodeAnswers(writeStallMs, onStall);
      const closing = closeWhenAnswered(fetch);
      const hono = getRequestListener(answers.fetch(closing.fetch), { hostname }) as HonoListener;
      const server = createServer(answers.listener(hono));
      server.listen(port, hostname, () => {
        server.off('error', reject);
        const { address, port: listening } = server.address() as AddressInfo;
        resolve({ origin: httpOrigin(address, listening), close: () => closing.close(server) });
      });
      server.once('error', reject);
      server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) =>
        answerClientError(error, socket, answerMalformed),
      );
    }),
};

/**
 * `close` stops listening, and settles once every request in progress is answered. node:http
 * closes the idle connections then, but would keep one whose answer is still in the works
 * open for the client's next request (keepAliveTimeout, 5 s); answers made from then on go
 * out with `Connection: close`, so each connection closes as its last answer is written.
 * Marked as they leave `fetch`: only a flag is read; the answers themselves are followed by
 * NodeAnswers, which listens to none that the socket took at once.
 */
function closeWhenAnswered(fetch: FetchHandler): { fetch: FetchHandler; close(server: Server): Promise<void> } {
  let closing = false;
  const lastOnItsConnection = (response: Response): Response => {
    if (!closing) return response;
    try {
      response.headers.set('Connection', 'close');
      return response;
    } catch {
      // Headers that cannot change (a fetch() answer passed on, Response.redirect()): a copy.
      const headers = new Headers(response.headers);
      headers.set('Connection', 'close');
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
  };
  return {
    fetch(request, delivery) {
      const answer = fetch(request, delivery);
      return answer instanceof Promise ? answer.then(lastOnItsConnection) : lastOnItsConnection(answer);
    },
    close: (server) =>
      new Promise((closed) => {
        closing = true;
        server.close(() => closed());
      }),
  };
}

/**
 * node:http refuses a request whose head passes 16 KiB (its default, MAX_HEAD_BYTES), or
 * that is not HTTP, before the app sees it; left to itself it writes a bare status line.
 * This writes the envelope.
 */
function answerClientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket, answerMalformed: MalformedAnswer): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const head = error.rawPacket?.toString('latin1') ?? '';
  const lineEnd = head.indexOf('\r\n');
  const requestLine = lineEnd < 0 ? head : head.slice(0, lineEnd);
  const { status, details } = refusal(error.code, lineEnd >= 0 && lineEnd < MAX_HEAD_BYTES, requestLine);
  const asked = /[?&]format=([a-z]+)(?:&|\s|$)/i.exec(requestLine)?.[1].toLowerCase();
  // The envelope's rule decides what the format answers its errors in (only xml answers XML).
  const format: Format = FORMATS.find((known) => known === asked) ?? 'xml';
  answerMalformed(status, details, format)
    .then(async (response) => {
      const body = Buffer.from(await response.arrayBuffer());
      let headers = '';
      response.headers.forEach((value, name) => (headers += `${name}: ${value}\r\n`));
      // HEAD's answer has the length of GET's and no body (RFC 9110, 9.3.2): a client would read one as the next answer.
      const content = requestLine.startsWith('HEAD ') ? '' : body.toString('latin1');
      socket.end(`HTTP/1.1 ${status} ${response.statusText}\r\n${headers}Content-Length: ${body.length}\r\n\r\n${content}`, 'latin1');
    })
    .catch(() => socket.destroy());
}

function refusal(code: string | undefined, requestLineFits: boolean, requestLine: string): { status: MalformedStatus; details: string } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return requestLineFits
      ? { status: 431, details: 'The request headers are larger than the 16 KiB this server accepts.' }
      : { status: 414, details: 'The request URL is longer than the 16 KiB this server accepts.' };
  }
  if (unencodedAddress(requestLine)) {
    return {
      status: 400,
      details:
        'The request is not valid HTTP/1.1: characters outside ASCII, spaces and control characters in the address ' +
        'must be percent-encoded (UTF-8), as encodeURIComponent does (é as %C3%A9).',
    };
  }
  return { status: 400, details: 'The request is not valid HTTP/1.1.' };
}

/**
 * Whether the request line's address (between the method and the HTTP version; the line read
 * as latin1, a byte a character) holds a byte HTTP allows there only percent-encoded: what a
 * client that sends a URL as typed gets wrong (docs/api.md, "Errors").
 */
function unencodedAddress(requestLine: string): boolean {
  const address = /^[A-Z]+ (.*) HTTP\/\d\.\d$/.exec(requestLine)?.[1];
  return address !== undefined && /[^\x21-\x7e]/.test(address);
}
