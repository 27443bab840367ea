/**
 * The configuration, merged from its sources and validated, with messages that say where a
 * bad setting came from and, for a misspelled field, the field meant (docs/configuration.md,
 * "Where settings come from").
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { nearestName } from '../structures/near-names.ts';
import { configSchema, type Config } from './schema.ts';

/** What the command line sets (src/cli/arguments.ts); it wins over the environment and the file. */
export interface CommandLineSettings {
  /** The configuration file, in place of SHAPESHOT_CONFIG. */
  configFile?: string;
  dataDir?: string;
  host?: string;
  port?: number;
}

/**
 * Configuration comes from a JSON file (SHAPESHOT_CONFIG, or --config) with environment
 * variables on top, so scripts and tests can override the few settings they care about,
 * and the command line on top of both, as a user typing it expects. Called again on SIGHUP.
 */
export function loadConfig(env: Record<string, string | undefined>, commandLine: CommandLineSettings = {}): Config {
  const { configFile = env.SHAPESHOT_CONFIG, ...settings } = commandLine;
  const fromFile = configFile ? readConfigFile(configFile) : {};
  const { merged, variableOf } = applyEnvironment(fromFile, env);
  return parseConfig({ ...merged, ...settings }, configFile ?? 'configuration', variableOf);
}

/** Which of the sources loadConfig() merges set the data folder: start-up messages say what to change there. */
export type DataFolderSetting = { from: 'command line' } | { from: 'environment' } | { from: 'file'; file: string } | { from: 'default' };

/**
 * The source loadConfig() took `dataDir` from, by the same precedence. A configuration file
 * is named even when it leaves dataDir unset: then the folder is the sample data's, which a
 * sound install always has, so no message about it is ever printed.
 */
export function dataFolderSetting(env: Record<string, string | undefined>, commandLine: CommandLineSettings = {}): DataFolderSetting {
  if (commandLine.dataDir !== undefined) return { from: 'command line' };
  if (env.SHAPESHOT_DATA) return { from: 'environment' };
  const configFile = commandLine.configFile ?? env.SHAPESHOT_CONFIG;
  return configFile ? { from: 'file', file: configFile } : { from: 'default' };
}

/**
 * Where a setting of the merged configuration came from when an environment variable set
 * it, as a message names it ("SHAPESHOT_KEYS entry 2"); undefined for the file's.
 */
type VariableOf = (path: readonly PropertyKey[]) => string | undefined;

/**
 * Validates a configuration object; the error names every bad field, each under the source
 * it came from (`source` for the file, the variable for one the environment set), and for an
 * unknown field the one meant.
 */
export function parseConfig(input: unknown, source = 'configuration', variableOf: VariableOf = () => undefined): Config {
  const result = configSchema.safeParse(input);
  if (result.success) return result.data;
  const fromFile: string[] = [];
  const fromVariables: string[] = [];
  for (const issue of result.error.issues) {
    const variable = variableOf(issue.path);
    if (variable) fromVariables.push(`Invalid ${variable}: ${variableProblem(issue)}`);
    else fromFile.push(...fieldProblems(issue));
  }
  const fileMessage = fromFile.length > 0 ? [`Invalid ${source}: ${fromFile.join('; ')}`] : [];
  throw new Error([...fileMessage, ...fromVariables].join('. '));
}

/** An issue of a field the file set, one problem per unknown field it lists. */
function fieldProblems(issue: z.core.$ZodIssue): string[] {
  const path = issue.path.join('.');
  if (issue.code !== 'unrecognized_keys') return [`field '${path || '(root)'}': ${issue.message}`];
  const fields = fieldNamesAt(configSchema, issue.path);
  return issue.keys.map((key) => {
    const meant = nearestCaseless(key, fields);
    const unknown = `unknown field '${key}'${meant ? `; did you mean '${meant}'?` : ''}`;
    return path ? `field '${path}': ${unknown}` : unknown;
  });
}

/** An issue of a setting an environment variable gave, told without its value: it may be a key. */
function variableProblem(issue: z.core.$ZodIssue): string {
  if (issue.code === 'too_small' && issue.origin === 'string') return `too short (at least ${issue.minimum} characters are needed)`;
  return issue.message;
}

/** The field of `fields` that `name` was meant to be, letter case aside (structures/near-names.ts). */
function nearestCaseless(name: string, fields: readonly string[]): string | undefined {
  const meant = nearestName(name.toLowerCase(), fields.map((field) => field.toLowerCase()));
  return meant === undefined ? undefined : fields.find((field) => field.toLowerCase() === meant);
}

/** The fields the object at `path` of `schema` has, as the schema lists them; none where no object stands. */
function fieldNamesAt(schema: z.core.$ZodType, path: readonly PropertyKey[]): string[] {
  let at = unwrapped(schema);
  for (const step of path) {
    const def = (at as z.core.$ZodTypes)._zod.def;
    const next = def.type === 'object' ? def.shape[String(step)] : def.type === 'array' ? def.element : def.type === 'record' ? def.valueType : undefined;
    if (next === undefined) return [];
    at = unwrapped(next);
  }
  const def = (at as z.core.$ZodTypes)._zod.def;
  return def.type === 'object' ? Object.keys(def.shape) : [];
}

/** `schema` without the optional, default and other wrappers around what it validates. */
function unwrapped(schema: z.core.$ZodType): z.core.$ZodType {
  let at = schema;
  for (;;) {
    const def = (at as z.core.$ZodTypes)._zod.def;
    switch (def.type) {
      case 'optional':
      case 'nullable':
      case 'default':
      case 'prefault':
      case 'readonly':
      case 'catch':
      case 'nonoptional':
        at = def.innerType;
        break;
      case 'pipe':
        at = def.in;
        break;
      default:
        return at;
    }
  }
}

function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`Cannot read configuration file '${path}': ${(error as Error).message}`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    return z.record(z.string(), z.unknown()).parse(parsed);
  } catch (error) {
    throw new Error(`Configuration file '${path}' is not a JSON object: ${withoutExcerpt((error as Error).message)}`);
  }
}

/**
 * V8 quotes the text around some JSON syntax errors (`Unexpected token 's', ..."key":sec"...
 * is not valid JSON`); this file holds keys, and the message goes to the log on SIGHUP.
 */
function withoutExcerpt(message: string): string {
  return message.replace(/, (?:\.\.\.)?".*"(?:\.\.\.)? is not valid JSON$/s, ': not valid JSON');
}

/** Settings an environment variable sets, by field. */
const VARIABLE_BY_FIELD: Record<string, string> = {
  dataDir: 'SHAPESHOT_DATA',
  host: 'SHAPESHOT_HOST',
  port: 'SHAPESHOT_PORT',
  logLevel: 'SHAPESHOT_LOG_LEVEL',
  serverTiming: 'SHAPESHOT_SERVER_TIMING',
};

/**
 * The file's settings with the environment's on top, and which variable set each setting the
 * environment gave: SHAPESHOT_KEYS's keys follow the file's, each named by its place among
 * the comma-separated entries (empty ones counted, as the user sees them).
 */
function applyEnvironment(fromFile: Record<string, unknown>, env: Record<string, string | undefined>): { merged: Record<string, unknown>; variableOf: VariableOf } {
  const merged: Record<string, unknown> = { ...fromFile };
  if (env.SHAPESHOT_DATA) merged.dataDir = env.SHAPESHOT_DATA;
  if (env.SHAPESHOT_HOST) merged.host = env.SHAPESHOT_HOST;
  if (env.SHAPESHOT_PORT) merged.port = environmentPort(env.SHAPESHOT_PORT);
  const fileKeys = (fromFile.keys as unknown[]) ?? [];
  const entries = (env.SHAPESHOT_KEYS ?? '').split(',').map((key, i) => ({ key: key.trim(), entry: i + 1 })).filter(({ key }) => key);
  if (entries.length > 0) merged.keys = [...fileKeys, ...entries.map(({ key }) => ({ key }))];
  if (env.SHAPESHOT_LOG_LEVEL) merged.logLevel = env.SHAPESHOT_LOG_LEVEL;
  if (env.SHAPESHOT_SERVER_TIMING) merged.serverTiming = env.SHAPESHOT_SERVER_TIMING === '1';
  // The store's URL may hold Redis's password, which stays out of the file this way.
  if (env.SHAPESHOT_LIMITS_STORE) merged.limits = { ...(fromFile.limits as object | undefined), store: env.SHAPESHOT_LIMITS_STORE };
  const variableOf: VariableOf = ([field, index]) => {
    if (field === 'limits' && index === 'store') return env.SHAPESHOT_LIMITS_STORE ? 'SHAPESHOT_LIMITS_STORE' : undefined;
    if (field === 'keys') {
      const entry = typeof index === 'number' ? entries[index - fileKeys.length]?.entry : undefined;
      return entry === undefined ? undefined : `SHAPESHOT_KEYS entry ${entry}`;
    }
    const variable = VARIABLE_BY_FIELD[String(field)];
    return variable && env[variable] ? variable : undefined;
  };
  return { merged, variableOf };
}

function environmentPort(text: string): number {
  const port = parsePort(text);
  if (port === undefined) throw new Error(`Invalid SHAPESHOT_PORT '${text}': must be a port number from 0 to 65535`);
  return port;
}

/** A TCP port number written in decimal (0: any free port), or undefined for text that is not one. */
export function parsePort(text: string): number | undefined {
  if (!/^\d{1,5}$/.test(text)) return undefined;
  const port = Number(text);
  return port <= 65535 ? port : undefined;
}
