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
  return { status: response.status, statusText: response.statusText, headers: response.headers, body: response.body as SourceAnswer['body'] };
};

const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

export const nodeRequest: SourceRequest = (url, headers, signal, method = 'GET') =>
  new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const agent = url.protocol === 'https:' ? agents.https : agents.http;
    const request = send(url, { method, headers, signal, agent }, (answer) => resolve(asSourceAnswer(answer, signal)));
    request.once('error', (error) => reject(asFetchFailure(error, signal)));
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

export const sourceRequest: SourceRequest = onNode ? nodeRequest : fetchRequest;
