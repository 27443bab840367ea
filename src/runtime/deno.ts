/**
 * Serving on Deno, for src/server/deno.ts: Deno.serve, with what web-answers.ts does for the
 * answers it cannot watch being written.
 */
import { httpOrigin, type FetchHandler, type Runtime } from './runtime.ts';
import { StallWatch } from './stall-watch.ts';
import { AnswerStalledError, WebAnswers } from './web-answers.ts';

/** The part of Deno's global API used here (the project type-checks with Node's types). */
declare const Deno: {
  version: { deno: string };
  serve(
    options: { hostname: string; port: number; onListen(address: unknown): void; onError(error: unknown): Response },
    handler: (request: Request, info: { completed: Promise<void> }) => Promise<Response>,
  ): { addr: { hostname: string; port: number }; shutdown(): Promise<void> };
};

/**
 * Deno: its native HTTP server, Deno.serve. It has no write timeout and gives no socket to
 * close: a stalled answer is dropped by erroring its body (web-answers.ts), which frees its
 * bytes and its admission slot at once; Deno closes the connection when it next can write.
 */
export const denoRuntime: Runtime = {
  name: `Deno ${Deno.version.deno}`,
  async serve(fetch: FetchHandler, { hostname, port, writeStallMs, onStall }) {
    const answers = new WebAnswers(new StallWatch(writeStallMs, onStall));
    const server = Deno.serve(
      // onListen replaces Deno's own "Listening on" line; the shared start-up prints one.
      { hostname, port, onListen() {}, onError: quietAboutStalls },
      async (request, info) => {
        const answer = answers.answer();
        const response = await answer.make(fetch, request);
        // Settles once the body is written or the connection is gone, whether or not Deno read the stream.
        return answer.handOver(response, (end) => void info.completed.then(end, end));
      },
    );
    return { origin: httpOrigin(server.addr.hostname, server.addr.port), close: () => server.shutdown() };
  },
};

/** Deno's own onError, less the log line for an answer dropped on purpose. */
function quietAboutStalls(error: unknown): Response {
  if (!(error instanceof AnswerStalledError)) console.error(error);
  return new Response('Internal Server Error', { status: 500 });
}
