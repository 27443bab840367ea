import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { configSchema, type Config } from './schema.ts';

/**
 * Configuration comes from a JSON file (SHAPESHOT_CONFIG) with environment variables on
 * top, so scripts and tests can override the few settings they care about.
 */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const fromFile = env.SHAPESHOT_CONFIG ? readConfigFile(env.SHAPESHOT_CONFIG) : {};
  return parseConfig(applyEnvironment(fromFile, env), env.SHAPESHOT_CONFIG ?? 'configuration');
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
    throw new Error(`Configuration file '${path}' is not a JSON object: ${(error as Error).message}`);
  }
}

function applyEnvironment(fromFile: Record<string, unknown>, env: Record<string, string | undefined>) {
  const merged: Record<string, unknown> = { ...fromFile };
  if (env.SHAPESHOT_DATA) merged.dataDir = env.SHAPESHOT_DATA;
  if (env.SHAPESHOT_HOST) merged.host = env.SHAPESHOT_HOST;
  if (env.SHAPESHOT_PORT) merged.port = parsePort(env.SHAPESHOT_PORT);
  if (env.SHAPESHOT_KEYS) {
    const keys = env.SHAPESHOT_KEYS.split(',').map((key) => key.trim()).filter(Boolean);
    merged.keys = [...((fromFile.keys as unknown[]) ?? []), ...keys.map((key) => ({ key }))];
  }
  if (env.SHAPESHOT_LOG_LEVEL) merged.logLevel = env.SHAPESHOT_LOG_LEVEL;
  if (env.SHAPESHOT_SERVER_TIMING) merged.serverTiming = env.SHAPESHOT_SERVER_TIMING === '1';
  return merged;
}

function parsePort(text: string): number {
  if (!/^\d{1,5}$/.test(text)) throw new Error(`Invalid SHAPESHOT_PORT '${text}': must be a port number`);
  return Number(text);
}
