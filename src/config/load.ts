import { readFileSync } from 'node:fs';
import { z } from 'zod';
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
  return parseConfig({ ...applyEnvironment(fromFile, env), ...settings }, configFile ?? 'configuration');
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

/** Validates a configuration object; the error names the source and every bad field. */
export function parseConfig(input: unknown, source = 'configuration'): Config {
  const result = configSchema.safeParse(input);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `field '${issue.path.join('.') || '(root)'}': ${issue.message}`);
  throw new Error(`Invalid ${source}: ${problems.join('; ')}`);
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

function applyEnvironment(fromFile: Record<string, unknown>, env: Record<string, string | undefined>) {
  const merged: Record<string, unknown> = { ...fromFile };
  if (env.SHAPESHOT_DATA) merged.dataDir = env.SHAPESHOT_DATA;
  if (env.SHAPESHOT_HOST) merged.host = env.SHAPESHOT_HOST;
  if (env.SHAPESHOT_PORT) merged.port = environmentPort(env.SHAPESHOT_PORT);
  if (env.SHAPESHOT_KEYS) {
    const keys = env.SHAPESHOT_KEYS.split(',').map((key) => key.trim()).filter(Boolean);
    merged.keys = [...((fromFile.keys as unknown[]) ?? []), ...keys.map((key) => ({ key }))];
  }
  if (env.SHAPESHOT_LOG_LEVEL) merged.logLevel = env.SHAPESHOT_LOG_LEVEL;
  if (env.SHAPESHOT_SERVER_TIMING) merged.serverTiming = env.SHAPESHOT_SERVER_TIMING === '1';
  return merged;
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
