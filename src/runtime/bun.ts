import { httpOrigin, type FetchHandler, type Runtime } from './runtime.ts';

/** The part of Bun's global API used here (the project type-checks with Node's types). */
declare const Bun: {
  version: string;
  serve(options: { hostname: string; port: number; idleTimeout: number; fetch: FetchHandler }): {
    hostname: string;
    port: number;
    stop(): Promise<void>;
  };
};

/** Bun's idleTimeout is in whole seconds, at most 255. */
const MAX_IDLE_SECONDS = 255;

/** Bun: its native HTTP server, Bun.serve. */
export const bunRuntime: Runtime = {
  name: `Bun ${Bun.version}`,
  async serve(fetch, { hostname, port, answerWithinMs }) {
    // Bun closes a connection that is silent for 10 s by default, which could cut off a
    // request the app is still allowed to work on.
    const idleTimeout = Math.min(MAX_IDLE_SECONDS, Math.ceil(answerWithinMs / 1000) + 1);
    const server = Bun.serve({ hostname, port, idleTimeout, fetch });
    return { origin: httpOrigin(server.hostname, server.port), close: () => server.stop() };
  },
};
