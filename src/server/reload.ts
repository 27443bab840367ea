/**
 * SIGHUP's reload (docs/configuration.md, "Reloading"): only the keys and the log level change
 * in a running server, for the requests that come next; everything else is built in at
 * start-up, so a change to it is logged by name and waits for a restart.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import type { KeyRing } from '../auth/keys.ts';
import type { Config } from '../config/schema.ts';
import type { Revocations } from '../limits/revocations.ts';

/**
 * What SIGHUP changes in a running server: what is looked up per request (a key's grant,
 * with its shapefiles, rate limit and concurrency) or per log line. The rest is built into
 * the server at start-up (the listener, worker pools, feature cache, basemap plugins,
 * themes, the request validators with their limits, admission) and takes a restart.
 */
const RELOADED = ['keys', 'logLevel'] as const satisfies readonly (keyof Config)[];

/** A reload that removed every key of a server started with keys: it made no start-up key, so none works. */
const NO_KEY_IN_FORCE =
  'no keys are configured now, and this server, started with keys, has no start-up key: every request is refused (401) until keys are configured again or the server restarts';

/**
 * Reads the configuration again and puts its keys and log level in force for the requests
 * that come next; those in progress go on with the grant they were given. A configuration
 * that does not load is logged and the running one kept; changes that need a restart are
 * logged by field. Returns the configuration now in force.
 */
export function reloadConfiguration(
  running: Config,
  load: () => Config,
  { keys, logger, revocations }: { keys: KeyRing; logger: Logger; revocations?: Pick<Revocations, 'reloaded'> },
): Config {
  let next: Config;
  try {
    next = load();
  } catch (error) {
    logger.error({ err: (error as Error).message }, 'configuration not reloaded; the running one stays in force');
    return running;
  }
  const inForce: Config = { ...running, ...Object.fromEntries(RELOADED.map((field) => [field, next[field]])) };
  const before = keys.ids();
  keys.replace(inForce.keys);
  // With a shared limits store, the keys taken away are refused by every instance (limits/revocations.ts).
  revocations?.reloaded(before, keys.ids());
  logger.level = inForce.logLevel;
  logger.info({ keys: inForce.keys.length, logLevel: inForce.logLevel }, 'configuration reloaded');
  if (keys.ids().length === 0) logger.warn(NO_KEY_IN_FORCE);
  const needRestart = (Object.keys(next) as (keyof Config)[]).filter((field) => !isDeepStrictEqual(next[field], inForce[field]));
  if (needRestart.length > 0) logger.warn({ fields: needRestart }, 'these settings take effect only after a restart');
  return inForce;
}
