/**
 * The lanes every request of a thread to a source goes through (src/sources/request-lanes.ts),
 * around both clients (node:http on Node, fetch() on Deno and Bun), against a scripted source
 * on loopback: at most `lanes` requests in flight at the source at once, the rest sent in
 * turn; a request whose signal fires while it waits is never sent; a lane is free again once
 * its answer's body is read, cancelled, or its request stopped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { boundedBody } from '../../src/plugin-contract/bounded-body.ts';
import { inLanes, requestLanes } from '../../src/sources/request-lanes.ts';
import { fetchRequest, nodeRequest, type SourceRequest } from '../../src/sources/source-request.ts';
import { startHostileSource, type HostileSource } from '../support/hostile-source.ts';

const LANES = 3;
const sources: HostileSource[] = [];
afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.stop()));
});

async function sourceOfOneFile(latencyMs = 0): Promise<{ source: HostileSource; url: URL }> {
  const source = await startHostileSource('http', { latencyMs });
  sources.push(source);
  source.put('a.shp', new Uint8Array(100).fill(7));
  return { source, url: new URL('a.shp', source.dataDir) };
}

const range = { range: 'bytes=0-9' };

describe.each([
  ['node:http', nodeRequest],
  ['fetch()', fetchRequest],
] as [string, SourceRequest][])('requests by %s in lanes', (_client, client) => {
  it(`keep at most ${LANES} in flight at the source, and send the rest in turn`, async () => {
    const { source, url } = await sourceOfOneFile(20);
    const send = inLanes(client, requestLanes(LANES));
    const answers = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const answer = await send(url, range, new AbortController().signal);
        return { status: answer.status, bytes: await boundedBody(answer, 100) };
      }),
    );
    expect(answers.map(({ status, bytes }) => [status, bytes?.length])).toEqual(Array.from({ length: 12 }, () => [206, 10]));
    expect(source.requests).toHaveLength(12);
    expect(source.peakInFlight()).toBe(LANES);
  });

  it('never send a request whose signal fires while it waits, and free a lane when a body is cancelled or a request stopped', async () => {
    const { source, url } = await sourceOfOneFile();
    const send = inLanes(client, requestLanes(LANES));
    source.script(() => 'stall');
    const stalled = Array.from({ length: LANES }, () => new AbortController());
    const answers = await Promise.all(stalled.map((controller) => send(url, range, controller.signal)));
    expect(source.inFlight()).toBe(LANES);

    const waiting = new AbortController();
    const waited = send(url, range, waiting.signal);
    waiting.abort(new Error('its time is up'));
    await expect(waited).rejects.toThrow('its time is up');

    // A cancelled body frees its lane: the next request is sent, and answered.
    source.script(undefined);
    const next = send(url, range, new AbortController().signal);
    await answers[0].body?.cancel();
    const answered = await next;
    expect([answered.status, (await boundedBody(answered, 100))?.length]).toEqual([206, 10]);

    // Stopped requests free theirs, body untouched.
    for (const controller of stalled.slice(1)) controller.abort(new Error('stopped'));
    const after = await Promise.all(Array.from({ length: LANES }, () => send(url, range, new AbortController().signal)));
    expect(after.map((answer) => answer.status)).toEqual(Array.from({ length: LANES }, () => 206));
    await Promise.all(after.map((answer) => answer.body?.cancel()));
    // The one whose signal fired while it waited reached the source never.
    expect(source.requests).toHaveLength(2 * LANES + 1);
  });
});
