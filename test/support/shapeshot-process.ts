/**
 * shapeshot as its own process, on Node, Deno or Bun, with a configuration the test writes:
 * what a fault at its data source does to the process is then seen as a client and a load
 * balancer see it (its /health timed from yet another process, its memory read from /proc),
 * and a process that locks up or balloons cannot take the test runner with it. Started as
 * `npm start`, `deno task start` and `bun run start` end up running it (bench/server-process.ts),
 * with `--config`; the environment is the test's, with what the test adds.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serverCommand, type RuntimeName } from '../../bench/server-process.ts';
import { processMemory } from './process-memory.ts';
import { sendRaw } from './raw-request.ts';
import { TEST_KEY } from './server.ts';
import { spawnServer, type SpawnedServer } from './spawned-server.ts';
import { makeTempDir } from './temp-dir.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

export interface Answered {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** From the request sent to the answer's last byte, by the test's clock. */
  ms: number;
}

/** No answer at all: the connection failed, or nothing came before the client gave up. */
export interface Unanswered {
  status: 'none';
  reason: string;
  ms: number;
}

export interface ShapeshotProcess {
  origin: string;
  pid: number;
  server: SpawnedServer;
  /**
   * GET `pathAndQuery` (the test key added) on a connection of its own, given up after
   * `giveUpAfterMs`: a request that hangs is a failure the test states, not a wait.
   */
  get(pathAndQuery: string, giveUpAfterMs: number): Promise<Answered | Unanswered>;
  /** The process's resident set now (VmRSS), in bytes, worker threads included. */
  residentBytes(): number;
  stop(): void;
}

/**
 * Starts shapeshot on `runtime` with `config` (the test key configured, logs at warn, any
 * port), `env` added to the test's environment, and waits for its "listening on" line.
 */
export async function startShapeshot(runtime: RuntimeName, config: Record<string, unknown>, env: Record<string, string> = {}): Promise<ShapeshotProcess> {
  const configFile = join(makeTempDir('shapeshot-process-'), 'config.json');
  writeFileSync(configFile, JSON.stringify({ port: 0, keys: [{ key: TEST_KEY }], logLevel: 'warn', ...config }));
  // spawnServer starts the process with the test's environment: `env` is added to it for that moment.
  const restore = withEnvironment(env);
  let server: SpawnedServer;
  try {
    server = await spawnServer([...serverCommand(runtime), '--config', configFile], REPO);
  } finally {
    restore();
  }
  const pid = server.process.pid!;
  return {
    origin: server.origin,
    pid,
    server,
    get: (pathAndQuery, giveUpAfterMs) => getFrom(server.origin, withKey(pathAndQuery), giveUpAfterMs),
    residentBytes: () => processMemory(pid)?.residentBytes ?? Number.NaN,
    stop: () => server.kill(),
  };
}

/** Sets `variables` in this process's environment; the function returned puts back what was there. */
export function withEnvironment(variables: Record<string, string>): () => void {
  const before = Object.fromEntries(Object.keys(variables).map((name) => [name, process.env[name]]));
  Object.assign(process.env, variables);
  return () => {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** The path with the test key in its query. */
export function withKey(pathAndQuery: string): string {
  return `${pathAndQuery}${pathAndQuery.includes('?') ? '&' : '?'}key=${TEST_KEY}`;
}

/** GET on a connection of its own, timed, given up after `giveUpAfterMs`. */
export async function getFrom(origin: string, target: string, giveUpAfterMs: number): Promise<Answered | Unanswered> {
  const started = performance.now();
  const outcome = await sendRaw(origin, { method: 'GET', target, headers: {} }, giveUpAfterMs).outcome;
  const ms = performance.now() - started;
  if (outcome.kind === 'failed') return { status: 'none', reason: outcome.reason, ms };
  return { status: outcome.status, headers: outcome.headers, text: outcome.body.toString(), ms };
}

/** One line about an answer, for assertion messages: its status, time, and what an error says (the envelope's ErrorDetails, /ogc's description). */
export function describeAnswer(answer: Answered | Unanswered, length = 400): string {
  if (answer.status === 'none') return `no answer (${answer.reason}) after ${answer.ms.toFixed(0)} ms`;
  let said = answer.text;
  try {
    const parsed = JSON.parse(answer.text) as { ErrorDetails?: unknown; description?: unknown };
    if (typeof parsed.ErrorDetails === 'string' && parsed.ErrorDetails !== '') said = parsed.ErrorDetails;
    else if (typeof parsed.description === 'string') said = parsed.description;
  } catch {
    // not JSON: the text as it is
  }
  return `${answer.status} after ${answer.ms.toFixed(0)} ms: ${said.slice(0, length)}`;
}
