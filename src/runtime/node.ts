import { serve } from '@hono/node-server';
import { httpOrigin, type Runtime } from './runtime.ts';

/** Node: node:http through Hono's adapter. */
export const nodeRuntime: Runtime = {
  name: `Node ${process.version}`,
  serve: (fetch, { hostname, port }) =>
    new Promise((resolve, reject) => {
      const server = serve({ fetch, hostname, port }, (info) => {
        server.off('error', reject);
        resolve({
          origin: httpOrigin(info.address, info.port),
          close: () => new Promise((closed) => server.close(() => closed())),
        });
      });
      server.once('error', reject);
    }),
};
