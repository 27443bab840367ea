/**
 * How Deno's and Bun's servers are handed answers (runtime/web-answers.ts), driven as they
 * drive it: a body is read as they read it, slice by slice, and the test plays the runtime
 * that reads, stops, cancels or loses the connection. Plain web streams: the same on Node.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { StallWatch } from '../../src/runtime/stall-watch.ts';
import { AnswerStalledError, SLICE_BYTES, WebAnswers } from '../../src/runtime/web-answers.ts';

const BIG = 1_000_000;

afterEach(() => vi.useRealTimers());

/** An answer made by an app that answers `body`, and whether it is written yet. */
async function handedOver(answers: WebAnswers, body: BodyInit | null) {
  const answer = answers.answer();
  const state = { written: 0, end: undefined as (() => void) | undefined };
  const response = await answer.make((_request, delivery) => {
    delivery.whenWritten(() => state.written++);
    return new Response(body, { status: 201, headers: { 'Content-Type': 'application/json' } });
  }, new Request('http://localhost/'));
  const given = await answer.handOver(response, (end) => (state.end = end));
  return { given, state };
}

const bytes = (length: number) => new Uint8Array(length).map((_, i) => i % 251);

describe('an answer handed to Deno or Bun', () => {
  it('that fits a slice is given as it is, written at once, and holds nothing', async () => {
    const answers = new WebAnswers();
    const { given, state } = await handedOver(answers, bytes(SLICE_BYTES));
    expect([state.written, answers.pendingBytes, given.status, given.headers.get('content-type')]).toEqual([1, 0, 201, 'application/json']);
    expect(Buffer.from(await given.arrayBuffer()).equals(bytes(SLICE_BYTES))).toBe(true);
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
