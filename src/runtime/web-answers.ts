/**
 * On Deno and Bun, when each answer is written and what the unsent ones hold. Their servers
 * take a web Response and give no socket to look at: Deno's `completed` settles as soon as a
 * body of bytes is handed to its HTTP stack (which then keeps all of it until the client has
 * read it), and Bun tells nothing. What both do tell is when they want more of a body that
 * is a stream: each asks for the next chunk once it has written the last, and cancels the
 * stream when the connection closes. So a large answer is handed over as a stream of slices
 * of its bytes, each a copy: the runtime holds a slice, never the answer; the answer is
 * written when the runtime asks past its end; and a runtime that has not asked for the next
 * slice in writeStallMs has a client that stopped reading. Only admitted requests' answers
 * are charged (a client without a key must not fill limits.maxPendingAnswerBytes with the
 * docs); on Deno the others are streamed as they come, to be watched for stalls, and on Bun,
 * which cuts stalled connections itself, handed over untouched: neither is copied whole.
 */
import { AnswerAccount } from './answer-account.ts';
import type { FetchHandler } from './runtime.ts';
import { StallWatch, WatchedWrite } from './stall-watch.ts';

/**
 * An admitted answer no larger is handed over as it is and counts as written: the operating
 * system's socket buffer takes that much at once. Most answers are (a PNG of some 20 KB), and
 * they pay no stream.
 */
export const WHOLE_BYTES = 64 * 1024;

/**
 * Bytes handed to the runtime at a time. Small, so that "stalled" is close to "no progress":
 * a client that takes less than one slice per writeStallMs (16 KiB per 10 s by default) is
 * cut off (README, Runtimes).
 */
export const SLICE_BYTES = 16 * 1024;

/** Why an answer's body stops: its client took nothing for writeStallMs. Not a fault to log. */
export class AnswerStalledError extends Error {
  constructor(writeStallMs: number) {
    super(`The client took no byte of its answer for ${writeStallMs} ms; the answer is dropped.`);
    this.name = 'AnswerStalledError';
  }
}

/** The answers of one Deno or Bun server. */
export class WebAnswers {
  /** Bytes of admitted answers reserved while made, or handed to the runtime and not yet asked for by it. */
  pendingBytes = 0;

  /** `stalls`: where the runtime cuts no stalled connection itself (Deno). */
  constructor(readonly stalls?: StallWatch) {}

  answer(): WebAnswer {
    return new WebAnswer(this);
  }
}

/** One request's answer, from the app's answer to its last byte taken by the runtime. */
export class WebAnswer extends AnswerAccount {
  constructor(readonly answers: WebAnswers) {
    super(answers);
  }

  /** The app's answer to `request`. */
  async make(app: FetchHandler, request: Request): Promise<Response> {
    try {
      return await app(request, this);
    } catch (error) {
      this.done();
      throw error;
    }
  }

  /**
   * The response to give the runtime for the app's. An admitted answer's body is read whole
   * first (the app's answers are bytes or text in memory, and Bun hands even those out in
   * 2 MB chunks, so only the whole tells their size): given as it is when it fits WHOLE_BYTES,
   * else as a stream of slices with its length, charged until the runtime has asked past its
   * end or cancelled it. `onClosed` is handed the end, for a runtime that may drop a stream it
   * never read when the connection closes first.
   */
  async handOver(response: Response, onClosed: (end: () => void) => void): Promise<Response> {
    this.unreserve();
    if (!response.body) {
      this.done();
      return response;
    }
    if (!this.admitted) return this.handOverUncharged(response, onClosed);
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      this.done();
      throw error;
    }
    if (bytes.byteLength <= WHOLE_BYTES) {
      this.done();
      return new Response(bytes, response);
    }
    const headers = new Headers(response.headers);
    headers.set('Content-Length', String(bytes.byteLength));
    const body = new SlicedBody(this, bytes.byteLength, wholeBytes(bytes));
    onClosed(() => body.end());
    return new Response(body.stream, { status: response.status, statusText: response.statusText, headers });
  }

  done(): void {
    this.finish();
  }

  /**
   * An answer no admission counted: its body as it comes (its length unknown then), watched
   * for stalls where the runtime does not cut them itself; untouched where it does.
   */
  private handOverUncharged(response: Response, onClosed: (end: () => void) => void): Response {
    if (!this.answers.stalls) {
      this.done();
      return response;
    }
    const body = new SlicedBody(this, 0, chunksOf(response.body!));
    onClosed(() => body.end());
    return new Response(body.stream, response);
  }

  /** What was reserved while the app made it gives way to what the body charges (SlicedBody). */
  private unreserve(): void {
    this.chargeAs(0);
  }
}

/** Where a sliced body's bytes come from, a chunk at a time. */
interface Chunks {
  /** The next chunk; undefined past the last. */
  next(): Promise<Uint8Array | undefined>;
  /** No more are wanted. */
  cancel(): void;
}

/** One chunk: the answer's bytes, let go of once handed out. */
function wholeBytes(bytes: Uint8Array): Chunks {
  let rest: Uint8Array | undefined = bytes;
  return {
    next() {
      const chunk = rest;
      rest = undefined;
      return Promise.resolve(chunk);
    },
    cancel: () => void (rest = undefined),
  };
}

/** The chunks of a body as its stream gives them. */
function chunksOf(stream: ReadableStream<Uint8Array>): Chunks {
  const reader = stream.getReader();
  return {
    next: async () => {
      const { done, value } = await reader.read();
      return done ? undefined : value;
    },
    // A body already ended or errored has nothing to cancel.
    cancel: () => void reader.cancel().catch(() => {}),
  };
}

/** An answer's bytes as a stream the runtime pulls slice by slice. */
class SlicedBody extends WatchedWrite {
  readonly stream: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  /** The chunk being sliced, and how far: bytes before `offset` are with the runtime. */
  private chunk: Uint8Array = new Uint8Array(0);
  private offset = 0;
  private pulls = 0;
  private ended = false;

  /** `charged`: bytes counted in pendingBytes for it until it ends (its whole answer, which it holds until then). */
  constructor(
    private readonly answer: WebAnswer,
    private readonly charged: number,
    private readonly chunks: Chunks,
  ) {
    super();
    answer.answers.pendingBytes += charged;
    // highWaterMark 0: a pull is the runtime asking, not the stream filling a queue of its own.
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => void (this.controller = controller),
        pull: () => this.pull(),
        cancel: () => this.end(),
      },
      { highWaterMark: 0 },
    );
    answer.answers.stalls?.watch(this);
  }

  /** Always waiting on the client: the runtime asks for a slice once it has written the last, and the next is ready at once. */
  progressMark(): number {
    return this.pulls;
  }

  stalled(): void {
    // Deno closes the connection once it can write again; the answer's bytes are freed now.
    this.controller.error(new AnswerStalledError(this.answer.answers.stalls!.writeStallMs));
    this.end();
  }

  /** Frees its bytes and reports the answer written. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.answer.answers.stalls?.forget(this);
    this.answer.answers.pendingBytes -= this.charged;
    this.chunk = new Uint8Array(0);
    this.chunks.cancel();
    this.answer.done();
  }

  private async pull(): Promise<void> {
    this.pulls++;
    try {
      while (this.offset >= this.chunk.byteLength) {
        const next = await this.chunks.next();
        if (this.ended) return;
        if (next === undefined) {
          this.controller.close();
          this.end();
          return;
        }
        this.chunk = next;
        this.offset = 0;
      }
    } catch (error) {
      this.end();
      throw error;
    }
    // A copy: a view would keep the whole answer alive with the runtime, however long its client stalls.
    const slice = this.chunk.slice(this.offset, this.offset + SLICE_BYTES);
    this.offset += slice.byteLength;
    this.controller.enqueue(slice);
  }
}
