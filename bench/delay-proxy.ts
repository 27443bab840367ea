/**
 * A proxy that holds every request for a fixed time before it forwards it: the latency
 * benchmark of issue 22 models a network between shapeshot and its data source (20 ms a
 * request, say) by putting this in front of nginx or an S3 server on loopback. Headers go
 * through as they are (Range, If-Match, Host: a SigV4 signature made for the proxy's address,
 * the endpoint the client was given, still verifies at the target), and answers come back
 * streamed.
 *
 * It tells whoever started it when it begins to hold a request, so a test can see the delay
 * being added without timing it, and when an answer has been sent back, with the bytes of its
 * body, so that the benchmark can count what the source served. A request whose client goes
 * away while held is dropped.
 */
import { Agent, createServer, request as forward, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DelayProxy {
  /** The proxy's origin, `http://127.0.0.1:<port>`. */
  url: string;
  stop(): Promise<void>;
}

export interface DelayProxyOptions {
  /** Where requests go: an origin, `http://127.0.0.1:9000`. */
  target: string;
  delayMs: number;
  /** Told as each request starts being held, with the time it will be held. */
  onHold?: (request: IncomingMessage, delayMs: number) => void;
  /** Told once an answer's body has been passed on whole, with its status and body bytes. */
  onAnswered?: (request: IncomingMessage, status: number, bodyBytes: number) => void;
}

export async function startDelayProxy({ target, delayMs, onHold, onAnswered }: DelayProxyOptions): Promise<DelayProxy> {
  const { hostname, port: targetPort } = new URL(target);
  // Connections to the target kept open, as a network's would be: a new one a request cost the proxy CPU the bench's two cores share with the server.
  const agent = new Agent({ keepAlive: true });
  const server = createServer((request, response) => {
    onHold?.(request, delayMs);
    const timer = setTimeout(() => {
      let ended = false;
      const upstream = forward({ hostname, port: targetPort, method: request.method, path: request.url, headers: request.headers, agent }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        let bodyBytes = 0;
        answer.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
        answer.once('end', () => {
          ended = true;
          onAnswered?.(request, answer.statusCode ?? 502, bodyBytes);
        });
        answer.pipe(response);
      });
      upstream.once('error', () => response.headersSent ? response.destroy() : response.writeHead(502).end());
      // A client gone before the answer ended takes the upstream request with it; an ended one's connection goes back to the agent.
      response.once('close', () => ended || upstream.destroy());
      request.pipe(upstream);
    }, delayMs);
    response.once('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
