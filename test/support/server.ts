import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { buildApp } from '../../src/app.ts';
import { parseConfig } from '../../src/config/load.ts';
import { createServices } from '../../src/server/services.ts';

export const TEST_KEY = 'test-key-0123456789';

export interface TestServer {
  url: (pathAndQuery: string) => string;
  close(): Promise<void>;
}

/** Starts the real app on a loopback port, as a user would reach it. */
export async function startServer(config: Record<string, unknown> = {}): Promise<TestServer> {
  const parsed = parseConfig({ port: 0, logLevel: 'silent', keys: [{ key: TEST_KEY }], ...config });
  const services = await createServices(parsed, pino({ level: parsed.logLevel }));
  const app = buildApp(services);
  const server: ServerType = await new Promise((resolve) => {
    const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: (pathAndQuery) => `http://127.0.0.1:${port}${pathAndQuery}`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      await services.close();
    },
  };
}

/** An images request for the test key. */
export function imagesUrl(server: TestServer, query: Record<string, string | number>): string {
  const params = new URLSearchParams({ key: TEST_KEY, ...Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)])) });
  return server.url(`/REST/v1/shapefiles/images?${params}`);
}
