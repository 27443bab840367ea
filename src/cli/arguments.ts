/**
 * The command line, read into what it asks for, with one sentence for each mistake that says
 * what to type instead (docs/configuration.md, "Where settings come from").
 */
import { parseArgs } from 'node:util';
import { parsePort, type CommandLineSettings } from '../config/load.ts';
import { nearestName } from '../structures/near-names.ts';
import { shellWord } from './shell-word.ts';

/** What the command line asks for. */
export type Command =
  | { kind: 'serve'; settings: CommandLineSettings }
  | { kind: 'help' }
  | { kind: 'version' }
  /** A usage error: the message, then the usage, and exit status 2. */
  | { kind: 'invalid'; message: string };

export const USAGE = `Usage: shapeshot [DATA_FOLDER] [options]

Serves the shapefiles in DATA_FOLDER (default: the sample data that ships with shapeshot)
as PNG images and maps over HTTP.

Options:
  -p, --port N       port to listen on (default 3000; 0: any free port)
      --host H       address to listen on (default 127.0.0.1: this machine only)
  -c, --config FILE  JSON configuration file (instead of SHAPESHOT_CONFIG)
  -h, --help         print this text and exit
      --version      print the version and exit

Precedence: these arguments, then the environment (SHAPESHOT_DATA, SHAPESHOT_PORT,
SHAPESHOT_HOST, SHAPESHOT_KEYS, ...), then the configuration file, then the defaults.
Signals: SIGTERM or SIGINT stops after the requests in progress are answered;
SIGHUP reloads the keys and the log level from the configuration.`;

const OPTIONS = {
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  config: { type: 'string', short: 'c' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

/**
 * The command line (without the runtime and the script: process.argv.slice(2)), parsed by
 * node:util's parseArgs, which Node, Deno and Bun all provide. Pure: the caller prints and exits.
 */
export function parseArguments(args: readonly string[]): Command {
  let parsed;
  try {
    parsed = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return { kind: 'invalid', message: unknownOption(args) ?? (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  if (positionals.length > 1) return { kind: 'invalid', message: `Give one data folder; got ${positionals.length}: ${positionals.join(' ')}.` };

  const settings: CommandLineSettings = {};
  if (positionals.length === 1) settings.dataDir = positionals[0];
  if (values.config !== undefined) settings.configFile = values.config;
  if (values.host !== undefined) {
    // An empty host would make the server listen on every interface.
    if (values.host === '') return { kind: 'invalid', message: "Option '--host' needs an address, e.g. 127.0.0.1 or 0.0.0.0." };
    settings.host = values.host;
  }
  if (values.port !== undefined) {
    const port = parsePort(values.port);
    if (port === undefined) return { kind: 'invalid', message: `Option '--port' takes a port number from 0 to 65535; got '${values.port}'.` };
    settings.port = port;
  }
  return { kind: 'serve', settings };
}

/**
 * The sentence for the first option that is none of ours, with the one meant (structures/
 * near-names.ts); undefined when every option is known. parseArgs's own message for it ends
 * with an unbalanced quote and reads differently on Node, Deno and Bun.
 */
function unknownOption(args: readonly string[]): string | undefined {
  const { tokens } = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  const longNames = Object.keys(OPTIONS);
  const unknown = tokens.find((token) => token.kind === 'option' && !longNames.includes(token.name));
  if (unknown?.kind !== 'option') return undefined;
  const meant = nearestName(unknown.name.toLowerCase(), longNames);
  if (meant) return `Unknown option '${unknown.rawName}': did you mean --${meant}?`;
  return `Unknown option '${unknown.rawName}' (a data folder whose name starts with '-' goes after '--': shapeshot -- ${shellWord(unknown.rawName)}).`;
}
