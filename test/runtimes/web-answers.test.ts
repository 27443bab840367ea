/**
 * How Deno's and Bun's servers are handed answers (runtime/web-answers.ts), driven as they
 * drive it: a body is read as they read it, slice by slice, and the test plays the runtime
 * that reads, stops, cancels or loses the connection. Plain web streams: the same on Node.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StallWatch } from '../../src/runtime/stall-watch.ts';
import { AnswerStalledError, SLICE_BYTES, WHOLE_BYTES, WebAnswers } from '../../src/runtime/web-answers.ts';

const BIG = 1_000_000;

afterEach(() => vi.useRealTimers());

/**
 * An answer made by an app that answers `body`, and whether it is written yet: an admitted
 * request's (whenWritten called, as admission does, after `reserved` bytes were reserved) or,
 * with `admitted: false`, one no admission counted (the docs).
 */
async function handedOver(answers: WebAnswers, body: BodyInit | null, { admitted = true, reserved = 0 } = {}) {
  const answer = answers.answer();
  const state = { written: 0, end: undefined as (() => void) | undefined, pendingWhileMade: Number.NaN };
  const response = await answer.make((_request, delivery) => {
    if (reserved > 0) delivery.reserve(reserved);
    state.pendingWhileMade = delivery.pendingAnswerBytes;
    if (admitted) delivery.whenWritten(() => state.written++);
    return new Response(body, { status: 201, headers: { 'Content-Type': 'application/json' } });
  }, new Request('http://localhost/'));
  const given = await answer.handOver(response, (end) => (state.end = end));
  return { given, state };
}

const bytes = (length: number) => new Uint8Array(length).map((_, i) => i % 251);

describe('an answer handed to Deno or Bun', () => {
  it('that the socket buffer takes whole is given as it is, written at once, and holds nothing', async () => {
    const answers = new WebAnswers();
    const { given, state } = await handedOver(answers, bytes(WHOLE_BYTES));
    expect([state.written, answers.pendingBytes, given.status, given.headers.get('content-type')]).toEqual([1, 0, 201, 'application/json']);
    expect(Buffer.from(await given.arrayBuffer()).equals(bytes(WHOLE_BYTES))).toBe(true);
  });

  it('counts bytes reserved while it is made, replaced by its own once handed over', async () => {
    const answers = new WebAnswers();
    const { state } = await handedOver(answers, bytes(BIG), { reserved: 3 * BIG });
    expect([state.pendingWhileMade, answers.pendingBytes]).toEqual([3 * BIG, BIG]);
  });

  it('gives the runtime copies of its slices: a stalled connection keeps one slice, not the answer', async () => {
    const answers = new WebAnswers();
    const { given } = await handedOver(answers, bytes(BIG));
    const { value } = await given.body!.getReader().read();
    expect(value!.byteLength).toBe(SLICE_BYTES);
    expect(value!.buffer.byteLength).toBe(SLICE_BYTES);
  });

  it('without a body is written at once', async () => {
    const answers = new WebAnswers();
    const { given, state } = await handedOver(answers, null);
    expect([state.written, given.body]).toEqual([1, null]);
  });

  it('that does not fit comes in slices with its length, charged until the runtime asks past its end', async () => {
    const answers = new WebAnswers();
    const { given, state } = await handedOver(answers, bytes(BIG));
    expect([given.status, given.headers.get('content-length'), given.headers.get('content-type')]).toEqual([201, String(BIG), 'application/json']);
    expect([state.written, answers.pendingBytes]).toEqual([0, BIG]);

    const reader = given.body!.getReader();
    const slices: Uint8Array[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      expect(read.value.byteLength).toBeLessThanOrEqual(SLICE_BYTES);
      slices.push(read.value);
      if (slices.length === 1) expect([state.written, answers.pendingBytes]).toEqual([0, BIG]);
    }
    expect(Buffer.concat(slices).equals(bytes(BIG))).toBe(true);
    expect([state.written, answers.pendingBytes]).toEqual([1, 0]);
  });

  it('is written, and frees its bytes, when the runtime cancels it or its connection closes first; once', async () => {
    const answers = new WebAnswers();
    const cancelled = await handedOver(answers, bytes(BIG));
    const closed = await handedOver(answers, bytes(BIG));
    expect(answers.pendingBytes).toBe(2 * BIG);
    const reader = cancelled.given.body!.getReader();
    await reader.read();
    await reader.cancel();
    closed.state.end!();
    closed.state.end!();
    expect([cancelled.state.written, closed.state.written, answers.pendingBytes]).toEqual([1, 1, 0]);
  });

  it('of a request no admission counted holds no charge; on Bun, which cuts stalled connections itself, it is given untouched', async () => {
    const answers = new WebAnswers();
    const body = bytes(BIG);
    const original = new Response(body);
    const answer = answers.answer();
    const response = await answer.make(() => original, new Request('http://localhost/'));
    const given = await answer.handOver(response, () => {});
    expect(given).toBe(original);
    expect(answers.pendingBytes).toBe(0);
  });

  it('of a request no admission counted holds no charge; on Deno it is streamed as it comes and dropped when stalled', async () => {
    vi.useFakeTimers();
    const onStall = vi.fn();
    const answers = new WebAnswers(new StallWatch(1000, onStall));
    const { given, state } = await handedOver(answers, bytes(BIG), { admitted: false });
    expect([answers.pendingBytes, given.status, given.headers.get('content-type')]).toEqual([0, 201, 'application/json']);
    const reader = given.body!.getReader();
    const first = await reader.read();
    expect(Buffer.from(first.value!).equals(bytes(BIG).subarray(0, SLICE_BYTES))).toBe(true);
    vi.advanceTimersByTime(1250);
    expect([state.written, answers.pendingBytes, onStall.mock.calls.length]).toEqual([0, 0, 1]);
    await expect(reader.read()).rejects.toBeInstanceOf(AnswerStalledError);
  });

  it('of a request no admission counted comes whole to a runtime that reads it', async () => {
    const answers = new WebAnswers(new StallWatch(60_000));
    const { given } = await handedOver(answers, bytes(BIG), { admitted: false });
    expect(Buffer.from(await given.arrayBuffer()).equals(bytes(BIG))).toBe(true);
    expect(answers.pendingBytes).toBe(0);
  });

  it('calls back at once when told to once already written', async () => {
    const answers = new WebAnswers();
    const answer = answers.answer();
    const given = await answer.handOver(await answer.make(() => new Response('small'), new Request('http://localhost/')), () => {});
    await given.text();
    let calledBack = false;
    answer.whenWritten(() => (calledBack = true));
    expect(calledBack).toBe(true);
  });

  it('that the runtime stops asking for is dropped after writeStallMs: its body errors, its bytes are freed', async () => {
    vi.useFakeTimers();
    const onStall = vi.fn();
    const answers = new WebAnswers(new StallWatch(1000, onStall));
    const { given, state } = await handedOver(answers, bytes(BIG));
    const reader = given.body!.getReader();
    await reader.read();
    vi.advanceTimersByTime(1000);
    expect(state.written).toBe(0);
    vi.advanceTimersByTime(250);
    expect([state.written, answers.pendingBytes, onStall.mock.calls.length]).toEqual([1, 0, 1]);
    await expect(reader.read()).rejects.toBeInstanceOf(AnswerStalledError);
  });
});
