/**
 * On Node, when each answer is written, what the unsent ones hold, and which have stalled,
 * all read from node:http's own response and socket: no answer's body is wrapped or copied.
 * The common answer (a PNG of some 20 KB) is written to the socket at once when handed over;
 * it costs an object, a place in the stall watch's set, a check of two flags and no listener
 * (measured against the server without them, a 20 KB answer over loopback at c=8: 0.5 µs of
 * CPU a request more, in the noise of the 40 µs the request costs).
 * Only an answer the socket could not take at once is listened to until its response closes,
 * and only an admitted request's is charged: what answers without admission (the docs, the
 * playground) is one buffer shared by all its requests, and a client without a key must not
 * be able to fill limits.maxPendingAnswerBytes with it. Those are cut when stalled all the same.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { AnswerAccount } from './answer-account.ts';
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

  /**
   * node:http's request listener: Hono's, followed by a look at how far its answer got. The
   * answer is watched from the start: while the app works nothing waits on the client, and
   * a stream the app answers with is written by @hono/node-server before its listener ends.
   */
  listener(hono: HonoListener): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
    return (incoming, outgoing) => {
      const answer = new NodeAnswer(this, outgoing);
      (outgoing as Tagged)[ANSWER] = answer;
      this.stalls.watch(answer.write);
      // Rejected or not, the answer is with node:http now (or never will be): else its slot and its place in the watch would stay.
      const handedOver = () => answer.handedOver();
      void hono(incoming, outgoing).then(handedOver, handedOver);
    };
  }

  /** @hono/node-server's fetch: the app's, told about its request's answer. */
  fetch(app: FetchHandler): (request: Request, bindings: { outgoing: unknown }) => Response | Promise<Response> {
    return (request, { outgoing }) => app(request, (outgoing as Tagged)[ANSWER]);
  }
}

/** One request's answer, from the app's answer to its last byte written. */
class NodeAnswer extends AnswerAccount {
  readonly write: OutgoingWrite;

  constructor(
    private readonly answers: NodeAnswers,
    private readonly outgoing: ServerResponse,
  ) {
    super(answers);
    this.write = new OutgoingWrite(outgoing);
  }

  /** All of it is with node:http: written, or buffered for a client that has not taken it. */
  handedOver(): void {
    const { outgoing } = this;
    if (outgoing.writableFinished || outgoing.destroyed) {
      this.done();
      return;
    }
    // The whole unfinished write, not what the socket has taken of it: its buffer is freed only
    // when all of it is written. It replaces what was reserved while it was made.
    this.chargeAs(this.admitted ? outgoing.writableLength : 0);
    outgoing.once('close', () => this.done());
  }

  private done(): void {
    if (this.finish()) this.answers.stalls.forget(this.write);
  }
}

/** A response being written, as the stall watch looks at it. */
class OutgoingWrite extends WatchedWrite {
  constructor(private readonly outgoing: ServerResponse) {
    super();
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
}
