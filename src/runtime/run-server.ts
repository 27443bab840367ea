import { pino } from 'pino';
import { buildApp } from '../app.ts';
import { loadXmlBuilder } from '../envelope/xml.ts';
import { loadConfig } from '../config/load.ts';
import { malformedAnswer } from '../http/malformed.ts';
import { createServices, exampleUrls } from '../server/services.ts';
import type { Runtime } from './runtime.ts';

/**
 * What every entry point does, on whichever runtime: configuration from the environment,
 * the app on the runtime's server, a working URL on the console, and on SIGINT or SIGTERM
 * a graceful stop (no new connections, accepted renders finish, then exit).
 */
export async function runServer(runtime: Runtime): Promise<void> {
  const config = loadConfig(process.env);
  const logger = pino({ level: config.logLevel });
  const services = await createServices(config, logger);
  const app = buildApp(services);

  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

  const server = await runtime.serve(app.fetch, {
    hostname: config.host,
    port: config.port,
    answerWithinMs: config.limits.requestTimeoutMs,
    answerMalformed: malformedAnswer(config.envelope, config.envelope.instance),
  });
  console.log(`shapeshot listening on ${server.origin} (${runtime.name}; data: ${config.dataDir})`);
  for (const example of await exampleUrls(services, server.origin)) console.log(`Try: ${example}`);
  void loadXmlBuilder();

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      // Not awaited: a client that keeps its connection open must not hold up the exit.
      void server.close();
      void services.close().then(() => process.exit(0));
    });
  }
}
