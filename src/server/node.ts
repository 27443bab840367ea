import { serve } from '@hono/node-server';
import { pino } from 'pino';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config/load.ts';
import { createServices, exampleUrl } from './services.ts';

/** Node entry point: configuration from the environment, then serve the app. */
const config = loadConfig(process.env);
const logger = pino({ level: config.logLevel });
const services = await createServices(config, logger);
const app = buildApp(services);

process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

const server = serve({ fetch: app.fetch, hostname: config.host, port: config.port }, async (info) => {
  const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
  const origin = `http://${host}:${info.port}`;
  console.log(`shapeshot listening on ${origin} (data: ${config.dataDir})`);
  const example = await exampleUrl(services, origin);
  if (example) console.log(`Try: ${example}`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server.close();
    void services.close().then(() => process.exit(0));
  });
}
