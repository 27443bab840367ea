/**
 * Every request to a remote source (a listing, a HEAD, a range read: fetch-range.ts), by the
 * runtime's cheapest and surest client. On Node that is node:http(s) with a keep-alive agent:
 * measured on the million-parcel bench, a read by fetch() cost a drawing worker about 1.1 ms
 * of CPU (undici's Request, Response, Headers and stream objects and their garbage), more than
 * the rest of a warm image's remote work, and warm throughput from nginx was 73 % of the local
 * folder's by fetch(), 90 % by node:http; and an aborted fetch() can go on waiting when a
 * garbage collection runs during it (undici issue 4627), where the signal destroys node:http's
 * socket, whatever the server does. Deno and Bun keep fetch(): theirs is native, their
 * node:http a layer over it.
 *
 * Either way the answer is read as a web Response is (status, headers, a body to iterate or
 * cancel), a redirect is not followed (its 3xx is the answer, which a read refuses), a network failure is a
 * TypeError with the system's code as its cause, as fetch() rejects (one-retry.ts tells
 * transient failures by that), and the signal stops the request and its body.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { inLanes, LANES_PER_SOURCE, requestLanes } from './request-lanes.ts';

/** What a source's client looks at of an answer: a web Response has all of it. */
export interface SourceAnswer {
  status: number;
  statusText: string;
  headers: { get(name: string): string | null };
  /** Chunks of the body, iterated with `for await`; cancel() drops the rest. */
  body: (AsyncIterable<Uint8Array> & { cancel(): Promise<unknown> }) | null;
}

/** A request of `method` (GET unless said) to `url`, stopped by `signal`. */
export type SourceRequest = (url: URL, headers: Record<string, string>, signal: AbortSignal, method?: 'GET' | 'HEAD') => Promise<SourceAnswer>;

export const fetchRequest: SourceRequest = async (url, headers, signal, method = 'GET') => {
  const response = await fetch(url, { method, headers, redirect: 'manual', signal });
  const body = response.body && cancelledBy(response.body, signal);
  // An answer that came after the signal fired (its abort lost, below) is dropped as it comes.
  if (signal.aborted) await body?.cancel();
  signal.throwIfAborted();
  return { status: response.status, statusText: response.statusText, headers: response.headers, body };
};

/**
 * A fetch() answer's body, read by a reader of ours and cancelled by the signal itself:
 * fetch() follows the signal it is given through a signal of its own Request, which a
 * garbage collection drops on Deno (denoland/deno#29075) and Bun (oven-sh/bun#43147), and
 * with it the abort; a listing that trickles was then read on past every deadline. Cancelling
 * the reader closes the connection whatever the source sends. A body the signal cut short
 * ends with the signal's reason, never as if whole.
 */
function cancelledBy(stream: ReadableStream<Uint8Array>, signal: AbortSignal): NonNullable<SourceAnswer['body']> {
  const reader = stream.getReader();
  const cancel = () => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener('abort', cancel, { once: true });
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        signal.throwIfAborted();
        if (done) return;
        yield value;
      }
    } catch (error) {
      throw signal.aborted ? signal.reason : error;
    } finally {
      signal.removeEventListener('abort', cancel);
    }
  }
  return Object.assign(chunks(), {
    cancel: async () => {
      signal.removeEventListener('abort', cancel);
      await reader.cancel().catch(() => undefined);
    },
  });
}

const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

export const nodeRequest: SourceRequest = (url, headers, signal, method = 'GET') =>
  new Promise((resolve, reject) => {
    signal.throwIfAborted();
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const agent = url.protocol === 'https:' ? agents.https : agents.http;
    let answered: IncomingMessage | undefined;
    const request = send(url, { method, headers, agent }, (answer) => {
      answered = answer;
      answer.once('close', () => signal.removeEventListener('abort', destroy));
      resolve(asSourceAnswer(answer, signal));
    });
    // The signal ends the exchange by destroying its socket, whether the answer's head or its body is awaited and whatever the source sends.
    const destroy = () => {
      request.destroy();
      answered?.destroy();
    };
    signal.addEventListener('abort', destroy, { once: true });
    request.on('error', (error) => {
      signal.removeEventListener('abort', destroy);
      reject(asFetchFailure(error, signal));
    });
    request.end();
  });

function asSourceAnswer(answer: IncomingMessage, signal: AbortSignal): SourceAnswer {
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of answer) yield chunk as Uint8Array;
    } catch (error) {
      throw asFetchFailure(error, signal);
    }
    // A body dropped by the signal can end as if whole, with nothing in it.
    if (signal.aborted || !answer.complete) throw asFetchFailure(new Error('the answer ended before its body did'), signal);
  }
  return {
    status: answer.statusCode ?? 0,
    statusText: answer.statusMessage ?? '',
    headers: {
      get(name) {
        const value = answer.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
    // Cancelled answers are refusals (a 200 for a range, another version): their bodies are not read, nor their sockets kept.
    body: Object.assign(chunks(), { cancel: async () => void answer.destroy() }),
  };
}

/** The signal's reason when it fired, else the error as fetch() would reject with it. */
function asFetchFailure(error: unknown, signal: AbortSignal): unknown {
  return signal.aborted ? signal.reason : new TypeError('fetch failed', { cause: error });
}

const onNode = process.versions.bun === undefined && process.versions.deno === undefined;

/** Every request of this thread to a source waits for one of its few lanes (request-lanes.ts). */
export const sourceRequest: SourceRequest = inLanes(onNode ? nodeRequest : fetchRequest, requestLanes(LANES_PER_SOURCE));
