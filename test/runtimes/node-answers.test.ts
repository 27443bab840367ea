/**
 * Node's runtime as the app sees it (runtime/node-answers.ts), on a real socket with a client
 * that stops reading: when an answer counts as written, what the unsent ones hold, and a body
 * the app streams (which @hono/node-server writes as its client takes it) cut off like bytes.
 * The app here is a bare fetch handler, so that what it answers is exactly what is tested.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.ts';
import type { AnswerDelivery } from '../../src/http/answer-delivery.ts';
import { malformedAnswer } from '../../src/http/malformed.ts';
import { nodeRuntime } from '../../src/runtime/node.ts';
import type { FetchHandler, Listener } from '../../src/runtime/runtime.ts';
import { stallingClient, type StalledClient } from '../support/slow-readers.ts';

const BYTES = 20_000_000;
const WRITE_STALL_MS = 400;

let listener: Listener | undefined;
const clients: StalledClient[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.socket.destroy();
  await listener?.close();
  listener = undefined;
});

/** The request's delivery and a promise of its answer written, for each request the app gets. */
interface Seen {
  delivery: AnswerDelivery;
  written: Promise<void>;
}

/**
 * Serves `answer` as an admitted request's (whenWritten called, as admission does), or with
 * `admitted: false` as one no admission counted (the docs).
 */
async function serve(
  answer: (path: string, delivery: AnswerDelivery) => Response,
  { admitted = true } = {},
): Promise<{ origin: string; seen: Seen[]; stalled: Promise<void> }> {
  const seen: Seen[] = [];
  let onStall!: () => void;
  const stalled = new Promise<void>((resolve) => (onStall = resolve));
  const fetch: FetchHandler = (request, delivery) => {
    const response = answer(new URL(request.url).pathname, delivery);
    seen.push({ delivery, written: admitted ? new Promise((resolve) => delivery.whenWritten(resolve)) : new Promise(() => {}) });
    return response;
  };
  const { envelope } = parseConfig({});
  listener = await nodeRuntime.serve(fetch, {
    hostname: '127.0.0.1',
    port: 0,
    answerWithinMs: 15_000,
    writeStallMs: WRITE_STALL_MS,
    onStall,
    answerMalformed: malformedAnswer(envelope, envelope.instance),
  });
  return { origin: listener.origin, seen, stalled };
}

async function stalledClient(origin: string, path: string): Promise<StalledClient> {
  const client = await stallingClient(origin, path);
  clients.push(client);
  return client;
}

describe("Node's answers", () => {
  it('count as written once their client has read them, and hold their bytes until then', async () => {
    const { origin, seen } = await serve(() => new Response(new Uint8Array(BYTES)));
    const client = await stalledClient(origin, '/');
    const [{ delivery, written }] = seen;
    expect(delivery.pendingAnswerBytes).toBeGreaterThanOrEqual(BYTES);
    let isWritten = false;
    void written.then(() => (isWritten = true));

    const { bodyBytes } = await client.readToEnd();
    expect(bodyBytes).toBe(BYTES);
    await written;
    expect(delivery.pendingAnswerBytes).toBe(0);
    expect(isWritten).toBe(true);
  });

  it('count bytes reserved while the answer is made, replaced by what node:http holds once it is handed over', async () => {
    let reservedSeen = Number.NaN;
    const { origin, seen } = await serve((_path, delivery) => {
      delivery.reserve(BYTES);
      reservedSeen = delivery.pendingAnswerBytes;
      return new Response(new Uint8Array(BYTES));
    });
    const client = await stalledClient(origin, '/');
    expect(reservedSeen).toBe(BYTES);
    // Not twice: the reservation gave way to the unfinished write.
    expect(seen[0].delivery.pendingAnswerBytes).toBeGreaterThan(0);
    expect(seen[0].delivery.pendingAnswerBytes).toBeLessThanOrEqual(BYTES + 1024);
    await client.readToEnd();
    await seen[0].written;
    expect(seen[0].delivery.pendingAnswerBytes).toBe(0);
  });

  it('of requests no admission counted hold no charge, and are cut off all the same when their client stops reading', async () => {
    const { origin, seen, stalled } = await serve(() => new Response(new Uint8Array(BYTES)), { admitted: false });
    const client = await stalledClient(origin, '/');
    expect(seen[0].delivery.pendingAnswerBytes).toBe(0);
    await stalled;
    const { bodyBytes } = await client.readToEnd();
    expect(bodyBytes).toBeLessThan(BYTES);
  });

  it('call back at once when told to once already written', async () => {
    const { origin, seen } = await serve(() => new Response(new Uint8Array(20_000)));
    await (await globalThis.fetch(`${origin}/`)).arrayBuffer();
    await seen[0].written;
    let calledBack = false;
    seen[0].delivery.whenWritten(() => (calledBack = true));
    expect(calledBack).toBe(true);
  });

  it('count a small answer written as soon as the socket has it, holding nothing', async () => {
    const { origin, seen } = await serve(() => new Response(new Uint8Array(20_000)));
    const response = await globalThis.fetch(`${origin}/`);
    expect((await response.arrayBuffer()).byteLength).toBe(20_000);
    await seen[0].written;
    expect(seen[0].delivery.pendingAnswerBytes).toBe(0);
  });

  it('end an endless streamed body whose client stops reading after writeStallMs', async () => {
    const chunk = new Uint8Array(64 * 1024);
    let pulled = 0;
    const { origin, seen, stalled } = await serve(
      () =>
        new Response(
          new ReadableStream({
            pull(controller) {
              pulled += chunk.byteLength;
              controller.enqueue(chunk);
            },
          }),
        ),
    );
    const client = await stalledClient(origin, '/');
    await stalled;
    await seen[0].written;
    // An endless body ends only by its connection being cut.
    const { bodyBytes } = await client.readToEnd();
    expect(bodyBytes).toBeLessThan(pulled);
    // The stream was read as its client took it: the socket buffers' worth, not a runaway.
    expect(pulled).toBeLessThan(BYTES);
  });
});
