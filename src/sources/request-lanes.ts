/**
 * A bound on the requests one thread has in flight at once at one source (issue 29): however
 * many files a page describes or a listing versions, a source sees at most a few requests
 * from each thread (docs/configuration.md, "Data sources"), as a browser keeps a few
 * connections to a host. The rest wait in turn, first come first served, each with its own
 * signal: a request whose deadline passes while it waits is stopped there, with the signal's
 * reason, as if the source had not answered in time, and never sent.
 *
 * A lane is held from the request's start to the end of its answer's body (read to its end,
 * cancelled, failed, or stopped by the signal): an answer whose body is still arriving is a
 * request the source is still serving.
 */

/** An answer as a source's client reads it: its body iterated or cancelled (source-request.ts's SourceAnswer). */
interface AnswerWithBody {
  body: (AsyncIterable<Uint8Array> & { cancel(): Promise<unknown> }) | null;
}

type Send<Answer> = (url: URL, headers: Record<string, string>, signal: AbortSignal, method?: 'GET' | 'HEAD') => Promise<Answer>;

/** Requests one thread has in flight at once at one origin: a few, so that the main thread and two workers stay far under a store's own limits. */
export const LANES_PER_SOURCE = 8;

/** Waits for a free lane of `key`; resolves with the lane's release (which frees it once, however often it is called). */
export type EnterLane = (key: string, signal: AbortSignal) => Promise<() => void>;

/** Lanes per key (a source's origin), `lanes` of each, taken in the order asked. */
export function requestLanes(lanes: number): EnterLane {
  const busy = new Map<string, number>();
  const waiting = new Map<string, (() => void)[]>();

  const leave = (key: string) => {
    const next = waiting.get(key)?.shift();
    if (waiting.get(key)?.length === 0) waiting.delete(key);
    // The lane passes straight to the first in line: the count stays as it is.
    if (next) return next();
    const left = (busy.get(key) ?? 1) - 1;
    if (left === 0) busy.delete(key);
    else busy.set(key, left);
  };

  const releaseOf = (key: string) => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      leave(key);
    };
  };

  return (key, signal) => {
    if (signal.aborted) return Promise.reject(signal.reason);
    if ((busy.get(key) ?? 0) < lanes) {
      busy.set(key, (busy.get(key) ?? 0) + 1);
      return Promise.resolve(releaseOf(key));
    }
    return new Promise((resolve, reject) => {
      const line = waiting.get(key) ?? [];
      waiting.set(key, line);
      const onAbort = () => {
        const at = line.indexOf(enter);
        if (at !== -1) line.splice(at, 1);
        if (line.length === 0 && waiting.get(key) === line) waiting.delete(key);
        reject(signal.reason);
      };
      const enter = () => {
        signal.removeEventListener('abort', onAbort);
        resolve(releaseOf(key));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      line.push(enter);
    });
  };
}

/** `send` with each request in a lane of its URL's origin, held until its answer's body ends. */
export function inLanes<Answer extends AnswerWithBody>(send: Send<Answer>, enter: EnterLane): Send<Answer> {
  return async (url, headers, signal, method) => {
    const leave = await enter(url.origin, signal);
    // A request its signal stopped is over at the source too (its socket destroyed), whether or not its body was touched.
    const release = () => {
      signal.removeEventListener('abort', release);
      leave();
    };
    signal.addEventListener('abort', release, { once: true });
    let answer: Answer;
    try {
      answer = await send(url, headers, signal, method);
    } catch (error) {
      release();
      throw error;
    }
    if (answer.body === null) {
      release();
      return answer;
    }
    return { ...answer, body: releasingBody(answer.body, release) };
  };
}

/** The body, releasing the lane when it has been read to its end, failed or been cancelled. */
function releasingBody(body: NonNullable<AnswerWithBody['body']>, release: () => void): NonNullable<AnswerWithBody['body']> {
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      yield* body;
    } finally {
      release();
    }
  }
  return Object.assign(chunks(), {
    cancel: async () => {
      try {
        return await body.cancel();
      } finally {
        release();
      }
    },
  });
}
