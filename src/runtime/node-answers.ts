/**
 * On Node, when each answer is written, what the unsent ones hold, and which have stalled,
 * all read from node:http's own response and socket: no answer's body is wrapped or copied.
 * The common answer (a PNG of some 20 KB) is written to the socket at once when handed over;
 * it costs a check of two flags and no listener. Only an answer the socket could not take at
 * once is charged, watched and listened to until its response closes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { AnswerDelivery } from '../http/answer-delivery.ts';
import type { FetchHandler } from './runtime.ts';
import { StallWatch, WatchedWrite } from './stall-watch.ts';

/** Where node:http's request listener leaves a request's answer for the app's fetch to find. */
const ANSWER = Symbol('shapeshot answer');

type Tagged = ServerResponse & { [ANSWER]: NodeAnswer };

/** @hono/node-server's listener: it resolves once it has handed the app's answer to `outgoing`. */
export type HonoListener = (incoming: IncomingMessage, outgoing: ServerResponse) => Promise<void>;

/** The answers of one node:http server. */
export class NodeAnswers {
  /** Bytes of answers handed to node:http and not yet written to their sockets. */
  pendingBytes = 0;
  readonly stalls: StallWatch;

  constructor(writeStallMs: number, onStall?: () => void) {
    this.stalls = new StallWatch(writeStallMs, onStall);
  }

  /** node:http's request listener: Hono's, followed by a look at how far its answer got. */
  listener(hono: HonoListener): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
    return (incoming, outgoing) => {
      const answer = new NodeAnswer(this, outgoing);
      (outgoing as Tagged)[ANSWER] = answer;
      void hono(incoming, outgoing).then(() => answer.handedOver());
    };
  }

  /** @hono/node-server's fetch: the app's, told about its request's answer, which is written once the app is done. */
  fetch(app: FetchHandler): (request: Request, bindings: { outgoing: unknown }) => Promise<Response> {
    return async (request, { outgoing }) => {
      const answer = (outgoing as Tagged)[ANSWER];
      const response = await app(request, answer);
      answer.leftTheApp();
      return response;
    };
  }
}

/** One request's answer, from the app's answer to its last byte written. */
export class NodeAnswer extends WatchedWrite implements AnswerDelivery {
  private written: (() => void) | undefined;
  /** Bytes counted in pendingBytes for it. */
  private charged = 0;

  constructor(
    private readonly answers: NodeAnswers,
    private readonly outgoing: ServerResponse,
  ) {
    super();
  }

  get pendingAnswerBytes(): number {
    return this.answers.pendingBytes;
  }

  whenWritten(written: () => void): void {
    this.written = written;
  }

  /**
   * The app has answered and @hono/node-server writes it: at once for bytes and text, as its
   * client takes them for a stream (whose writing only the watch sees until it ends).
   */
  leftTheApp(): void {
    this.answers.stalls.watch(this);
  }

  /** All of it is with node:http: written, or buffered for a client that has not taken it. */
  handedOver(): void {
    const { outgoing } = this;
    if (outgoing.writableFinished || outgoing.destroyed) {
      this.done();
      return;
    }
    // The whole unfinished write, not what the socket has taken of it: its buffer is freed only when all of it is written.
    this.charged = outgoing.writableLength;
    this.answers.pendingBytes += this.charged;
    this.answers.stalls.watch(this);
    outgoing.once('close', () => this.done());
  }

  progressMark(): number | undefined {
    const unsent = this.outgoing.writableLength;
    // Not on its socket yet (behind an earlier answer on the connection, which is watched itself): not waiting on the client.
    if (unsent === 0 || !this.outgoing.socket) return undefined;
    // libuv's queue shrinks as the kernel takes bytes of a write, which writableLength counts whole until it completes.
    const handle = (this.outgoing.socket as (Socket & { _handle?: { writeQueueSize?: number } }) | null)?._handle;
    return unsent + (handle?.writeQueueSize ?? 0);
  }

  stalled(): void {
    // A reset, not a close: the kernel would go on offering the bytes it holds to a client that does not read them.
    // The response's 'close' (or @hono/node-server's end of a stream) follows, and ends the answer.
    this.outgoing.socket!.resetAndDestroy();
  }

  private done(): void {
    this.answers.stalls.forget(this);
    this.answers.pendingBytes -= this.charged;
    this.charged = 0;
    const written = this.written;
    this.written = undefined;
    written?.();
  }
}
