/**
 * What every entry point runs, written once for Node, Deno and Bun (README.md, "Runtimes"): the
 * command line, the configuration, the services, the start-up lines, then a graceful stop on
 * SIGINT and SIGTERM and a reload on SIGHUP. The entry points only pick the runtime's adapter.
 */
import { pino } from 'pino';
import type { Services } from '../app-services.ts';
import { buildApp } from '../app.ts';
import { deadlineSignal } from '../cancellation/deadline-signal.ts';
import { parseArguments, USAGE } from '../cli/arguments.ts';
import { assertServableDataFolder } from '../cli/data-folder-check.ts';
import { emptyFolderAdvice, folderContents } from '../cli/empty-folder-advice.ts';
import { listenProblem } from '../cli/listen-problem.ts';
import { StartUpProblem, USAGE_ERROR } from '../cli/start-up-problem.ts';
import { dataFolderSetting, loadConfig, type CommandLineSettings } from '../config/load.ts';
import { packageVersion } from '../config/package-folders.ts';
import { malformedAnswer } from '../http/malformed.ts';
import { isRemote, sourceSetting } from '../sources/registry.ts';
import type { Runtime } from '../runtime/runtime.ts';
import { createServices } from './create-services.ts';
import { stopGracefullyOn } from './graceful-stop.ts';
import { reloadConfiguration } from './reload.ts';
import { startUpExamples, type StartUpExamples } from './start-up-examples.ts';
import { startUpLines, tryLines } from './start-up-lines.ts';

/**
 * What every entry point does, on whichever runtime: the command line (`shapeshot
 * [DATA_FOLDER] [options]`), then the server. The process exits itself in every case, so
 * nothing a module set going when it loaded keeps `--help` waiting.
 */
export async function runServer(runtime: Runtime): Promise<void> {
  const command = parseArguments(process.argv.slice(2));
  switch (command.kind) {
    case 'help':
      console.log(USAGE);
      process.exit(0);
    case 'version':
      console.log(`shapeshot ${packageVersion()}`);
      process.exit(0);
    case 'invalid':
      console.error(`shapeshot: ${command.message}\n\n${USAGE}`);
      process.exit(USAGE_ERROR);
    case 'serve':
      await serve(runtime, command.settings).catch((error: unknown) => {
        // A bad configuration, a missing folder or a port in use: the message says which and what to do; a stack would bury it.
        console.error(`shapeshot: ${(error as Error).message}`);
        process.exit(error instanceof StartUpProblem ? error.exitStatus : 1);
      });
  }
}

/**
 * The configuration (command line over environment over file), its data folder checked
 * before anything starts, the app on the runtime's server, working URLs on the console; a
 * graceful stop on SIGINT or SIGTERM, and on SIGHUP the keys and log level read again
 * (SIGHUP does not exist on Windows).
 */
async function serve(runtime: Runtime, commandLine: CommandLineSettings): Promise<void> {
  const load = () => loadConfig(process.env, commandLine);
  let config = load();
  const remote = isRemote(sourceSetting(config));
  if (!remote) assertServableDataFolder(config.dataDir, dataFolderSetting(process.env, commandLine));
  // SIGHUP's default is to end the process: a reload asked for while the server starts
  // (systemctl reload) waits until it has started instead.
  let reloadAsked = false;
  const askReload = () => void (reloadAsked = true);
  if (process.platform !== 'win32') process.on('SIGHUP', askReload);
  const logger = pino({ level: config.logLevel });
  if (config.demoKey !== undefined) console.error(`shapeshot: ${DEMO_KEY_REMOVED}`);
  const services = await createServices(config, logger);
  const app = buildApp(services);

  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));

  // A remote source that does not answer yet is no reason not to start: /ready says so until it does.
  const shapefiles = await services.catalog.names().catch((error: unknown) => {
    if (!services.source) throw error;
    console.error(`shapeshot: ${(error as Error).message}`);
    return [];
  });
  if (services.source && shapefiles.length === 0) console.error(`shapeshot: data source ${services.source.describe()} lists no shapefile (.shp) yet.`);
  else if (shapefiles.length === 0) console.error(`shapeshot: ${emptyFolderAdvice(config.dataDir, folderContents(config.dataDir))}`);

  const listener = await runtime.serve(app.fetch, {
    hostname: config.host,
    port: config.port,
    answerWithinMs: config.limits.requestTimeoutMs,
    writeStallMs: config.limits.writeStallMs,
    onStall: () => logger.info({ writeStallMs: config.limits.writeStallMs }, 'answer dropped: its client read none of it for limits.writeStallMs'),
    answerMalformed: malformedAnswer(config.envelope, config.envelope.instance),
  }).catch((error: unknown) => {
    throw listenProblem(error, config.host, config.port) ?? error;
  });
  const dataFolder = services.source?.describe() ?? config.dataDir;
  const facts = { origin: listener.origin, runtime: runtime.name, dataFolder, shapefiles, startUpKey: services.keys.startUpKey() };
  // On stdout alone, never through the logger, whose lines may be kept in a log file: the
  // start-up key is printed nowhere else (docs/configuration.md, "The start-up key").
  for (const line of startUpLines(facts)) console.log(line);
  // The examples are looked for while the server already serves.
  void examplesFor(services, shapefiles, config.limits.requestTimeoutMs).then((examples) => {
    for (const line of tryLines(facts, examples)) console.log(line);
  });

  stopGracefullyOn(['SIGINT', 'SIGTERM'], { listener, services, requestTimeoutMs: config.limits.requestTimeoutMs, logger });
  if (process.platform !== 'win32') {
    const reload = () => void (config = reloadConfiguration(config, load, services));
    process.off('SIGHUP', askReload);
    process.on('SIGHUP', reload);
    if (reloadAsked) reload();
  }
}

/** What a configuration that still names `demoKey` is told (docs/configuration.md, "The start-up key"). */
const DEMO_KEY_REMOVED =
  'the setting demoKey is ignored: the well-known demo key it switched was removed (any page could use it); ' +
  'while no keys are configured the server now makes a random start-up key and prints it in its start-up URLs. Remove demoKey from the configuration.';

/**
 * The examples the Try lines name, looked for within a request's time; none when the search
 * fails. None from a remote source either: checking them reads the files' records and rows
 * (a feature count reads a whole .dbf), which a start-up must not cost a bucket.
 */
async function examplesFor(services: Services, shapefiles: readonly string[], withinMs: number): Promise<StartUpExamples> {
  if (shapefiles.length === 0 || services.source !== undefined) return {};
  const deadline = deadlineSignal(withinMs);
  try {
    return await startUpExamples(services, shapefiles, deadline.signal);
  } catch {
    return {};
  } finally {
    deadline.clear();
  }
}
