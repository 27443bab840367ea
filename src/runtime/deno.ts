import { httpOrigin, type FetchHandler, type Runtime } from './runtime.ts';

/** The part of Deno's global API used here (the project type-checks with Node's types). */
declare const Deno: {
  version: { deno: string };
  serve(
    options: { hostname: string; port: number; onListen(address: unknown): void },
    handler: FetchHandler,
  ): { addr: { hostname: string; port: number }; shutdown(): Promise<void> };
};

/** Deno: its native HTTP server, Deno.serve. */
export const denoRuntime: Runtime = {
  name: `Deno ${Deno.version.deno}`,
  async serve(fetch, { hostname, port }) {
    // onListen replaces Deno's own "Listening on" line; the shared start-up prints one.
    const server = Deno.serve({ hostname, port, onListen() {} }, fetch);
    return { origin: httpOrigin(server.addr.hostname, server.addr.port), close: () => server.shutdown() };
  },
};
