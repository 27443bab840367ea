/**
 * On Deno and Bun, when each answer is written and what the unsent ones hold. Their servers
 * take a web Response and give no socket to look at: Deno's `completed` settles as soon as a
 * body of bytes is handed to its HTTP stack (which then keeps all of it until the client has
 * read it), and Bun tells nothing. What both do tell is when they want more of a body that
 * is a stream: each asks for the next chunk once it has written the last, and cancels the
 * stream when the connection closes. So an answer larger than one slice is handed over as a
 * stream of slices of its bytes: the runtime holds a slice, not the answer; the answer is
 * written when the runtime asks past its end; and a runtime that has not asked for the next
 * slice in writeStallMs has a client that stopped reading.
 */
import type { AnswerDelivery } from '../http/answer-delivery.ts';
import type { FetchHandler } from './runtime.ts';
import { StallWatch, WatchedWrite } from './stall-watch.ts';

/**
 * Bytes handed to the runtime at a time. An answer no larger is handed over as it is and
 * counts as written: the operating system's socket buffer takes that much at once. Most
 * answers are (a PNG of some 20 KB), and they pay no stream.
 */
export const SLICE_BYTES = 64 * 1024;

/** Why an answer's body stops: its client took nothing for writeStallMs. Not a fault to log. */
export class AnswerStalledError extends Error {
  constructor(writeStallMs: number) {
    super(`The client took no byte of its answer for ${writeStallMs} ms; the answer is dropped.`);
    this.name = 'AnswerStalledError';
  }
}

/** The answers of one Deno or Bun server. */
export class WebAnswers {
  /** Bytes of answers handed to the runtime and not yet asked for by it. */
  pendingBytes = 0;

  /** `stalls`: where the runtime cuts no stalled connection itself (Deno). */
  constructor(readonly stalls?: StallWatch) {}

  answer(): WebAnswer {
    return new WebAnswer(this);
  }
}

/** One request's answer, from the app's answer to its last byte taken by the runtime. */
export class WebAnswer implements AnswerDelivery {
  private written: (() => void) | undefined;
  private finished = false;

  constructor(readonly answers: WebAnswers) {}

  get pendingAnswerBytes(): number {
    return this.answers.pendingBytes;
  }

  whenWritten(written: () => void): void {
    this.written = written;
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
   * The response to give the runtime for the app's: the same when its body fits one slice;
   * else its bytes as a stream of slices, charged until the runtime has asked past their end
   * or cancelled it. The body is read whole first: the app's answers are bytes or text in
   * memory, and Bun hands even those out in 2 MB chunks, so only the whole tells their size.
   * `onClosed` is handed the end, for a runtime that may drop a stream it never read when the
   * connection closes first.
   */
  async handOver(response: Response, onClosed: (end: () => void) => void): Promise<Response> {
    if (!response.body) {
      this.done();
      return response;
    }
    let bytes: Uint8Array<ArrayBuffer>;
    try {
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (error) {
      this.done();
      throw error;
    }
    if (bytes.byteLength <= SLICE_BYTES) {
      this.done();
      return new Response(bytes, response);
    }
    const headers = new Headers(response.headers);
    headers.set('Content-Length', String(bytes.byteLength));
    const body = new SlicedBody(this, bytes);
    onClosed(() => body.end());
    return new Response(body.stream, { status: response.status, statusText: response.statusText, headers });
  }

  done(): void {
    if (this.finished) return;
    this.finished = true;
    const written = this.written;
    this.written = undefined;
    written?.();
  }
}

/** An answer's bytes as a stream the runtime pulls slice by slice. */
class SlicedBody extends WatchedWrite {
  readonly stream: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  /** What is handed over: bytes before it are with the runtime. */
  private offset = 0;
  private pulls = 0;
  private ended = false;

  constructor(
    private readonly answer: WebAnswer,
    private bytes: Uint8Array,
  ) {
    super();
    // Charged whole until the end: the slices with the runtime are views of it, which keep all of it.
    answer.answers.pendingBytes += bytes.byteLength;
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
    this.answer.answers.pendingBytes -= this.bytes.byteLength;
    this.bytes = new Uint8Array(0);
    this.answer.done();
  }

  private pull(): void {
    this.pulls++;
    if (this.offset >= this.bytes.byteLength) {
      this.controller.close();
      this.end();
      return;
    }
    const slice = this.bytes.subarray(this.offset, this.offset + SLICE_BYTES);
    this.offset += slice.byteLength;
    this.controller.enqueue(slice);
  }
}
