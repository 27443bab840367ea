/**
 * What each runtime lets the server do with clients that stop reading (README, Runtimes):
 * on Node, Deno and Bun alike an answer holds its admission slot (and its key's) until it
 * is written, an answer that would take the bytes of unread answers past
 * limits.maxPendingAnswerBytes once made is refused,
 * and a client that reads nothing for limits.writeStallMs loses its answer, which frees both.
 * How the answer is dropped differs: Node resets the connection, Bun's idle timeout closes
 * it (checked every 4 s), Deno drops the rest of the body and closes the connection when it
 * can next write. Each client here sees its answer cut short. Bun sends an answer larger than
 * 64 KiB chunked, without a Content-Length: it drops the length of a streamed body.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RUNTIMES, serverCommand } from '../../bench/server-process.ts';
import { spawnServer, type SpawnedServer } from '../support/spawned-server.ts';
import { LARGE_ANSWER_BYTES, PAST_SOCKET_BUFFERS_FIELDS, stallingClient, writeWidePoints, type StalledClient } from '../support/slow-readers.ts';
import { until } from '../support/until.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** Each may have one request in progress at once: its slot admitting again is the sign its stalled answer is gone. */
const ONE_AT_A_TIME_KEY = 'one-at-a-time-key-0123';
const OTHER_KEY = 'other-key-0123456789';
const bigPage = (key: string) => `/ogc/collections/wide/items?limit=1000&key=${key}`;
const smallPage = (key: string) => `/ogc/collections/wide/items?limit=1&key=${key}`;

let folder: string;
let server: SpawnedServer | undefined;
const clients: StalledClient[] = [];

beforeAll(() => {
  folder = makeTempDir('slow-readers-runtimes-');
  // Pages of some 52 MB: more than the socket buffers take, less than the 60 MB bound below.
  writeWidePoints(folder, 'wide', { count: 1000, fields: PAST_SOCKET_BUFFERS_FIELDS });
  const config = {
    keys: [
      { key: ONE_AT_A_TIME_KEY, maxConcurrent: 1 },
      { key: OTHER_KEY, maxConcurrent: 1 },
    ],
    dataDir: folder,
    logLevel: 'warn',
    limits: { writeStallMs: 5000, maxPendingAnswerBytes: 60_000_000, maxAnswerBytes: LARGE_ANSWER_BYTES },
    render: { workers: 1, maxQueue: 8 },
  };
  writeFileSync(join(folder, 'config.json'), JSON.stringify(config));
});

afterEach(() => {
  for (const client of clients.splice(0)) client.socket.destroy();
  server?.kill();
  server = undefined;
});

afterAll(() => removeTempDirs());

async function stalled(origin: string, path: string): Promise<StalledClient> {
  const client = await stallingClient(origin, path);
  clients.push(client);
  return client;
}

async function get(origin: string, path: string): Promise<{ status: number; description?: string }> {
  const response = await fetch(`${origin}${path}`);
  const text = await response.text();
  return response.status === 200 ? { status: 200 } : { status: response.status, description: JSON.parse(text).description };
}

describe('clients that stop reading', () => {
  it.each(RUNTIMES)('on %s: hold their slots and their bytes until they are cut off after limits.writeStallMs', async (runtime) => {
    server = await spawnServer([...serverCommand(runtime), '--config', join(folder, 'config.json'), '--port', '0'], REPO);
    const { origin } = server;
    // Bun sends a body it streams chunked, without a Content-Length, so the whole answer's length is learnt first.
    const fullLength = (await (await fetch(`${origin}${bigPage(OTHER_KEY)}`)).arrayBuffer()).byteLength;

    const first = await stalled(origin, bigPage(ONE_AT_A_TIME_KEY));
    expect(first.status).toBe(200);
    expect(await get(origin, smallPage(ONE_AT_A_TIME_KEY))).toEqual({
      status: 503,
      description: 'This access key has 1 requests in progress, the most it may have at once; retry when one has finished.',
    });
    expect(await get(origin, smallPage(OTHER_KEY))).toEqual({ status: 200 });

    // Admitted (52 MB unread is within the bound), but its own 52 MB, once made, would pass it.
    const refused = await get(origin, bigPage(OTHER_KEY));
    expect(refused.status).toBe(503);
    expect(refused.description).toMatch(/^This answer of [\d,]+ bytes would take the answers that their clients have not read yet to [\d,]+ bytes, more than limits\.maxPendingAnswerBytes \(60,000,000 bytes\) allows; retry shortly\.$/);
    expect(await get(origin, smallPage(OTHER_KEY))).toEqual({ status: 200 });

    // Bun says nothing when it closes a connection: the slot admitting again is the event.
    await until(async () => (await get(origin, smallPage(ONE_AT_A_TIME_KEY))).status === 200);
    const { bodyBytes } = await first.readToEnd();
    expect(bodyBytes).toBeLessThan(fullLength);
  }, 90_000);
});
