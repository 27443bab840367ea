/**
 * Admission: which requests may start work that reads shapefiles, and how many bytes their
 * answers may hold while their clients have not read them. Refused before any work, with 503
 * and the reason /metrics counts: a service that sheds what it cannot serve stays up.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { OverloadedError, withoutStack } from '../errors.ts';
import type { AppEnv } from './context.ts';

export interface AdmissionOptions {
  /** Requests at work at once, at most: the workers' and the queue's worth. */
  maxInFlight: number;
  /** A request that would wait longer than this for a worker is refused. */
  maxWaitMs: number;
  /** How long a request admitted now would wait for a worker, by the job pool's reckoning. */
  expectedWaitMs(): number;
  /** Bytes of unread answers the server may hold before it refuses new work (limits.maxPendingAnswerBytes). */
  maxPendingAnswerBytes: number;
}

/** Why a request was refused before it read anything; /metrics counts refusals by it. */
export type RefusalReason = 'queue_full' | 'too_slow' | 'key_concurrency' | 'rate_limit' | 'answers_unread' | 'limit_store';

/** 503 before any work, saying why. */
export class RefusedError extends OverloadedError {
  constructor(
    message: string,
    readonly reason: RefusalReason,
    retryAfterSeconds = 1,
  ) {
    super(message, retryAfterSeconds);
  }
}

/**
 * A refusal without a stack: it is no fault to trace, and capturing the stack was the
 * largest cost of refusing when thousands a second are refused (4 µs each, profiled).
 */
export function refusal(message: string, reason: RefusalReason, retryAfterSeconds?: number): RefusedError {
  return withoutStack(() => new RefusedError(message, reason, retryAfterSeconds));
}

/** One refusal for every request the service is too busy for, per reason. */
const busy = (reason: RefusalReason) => Object.freeze(refusal('The service is busy; retry shortly.', reason));
const QUEUE_FULL = busy('queue_full');
const TOO_SLOW = busy('too_slow');

/**
 * Admits a request to the drawing work, or refuses it with 503 before it reads anything:
 * at most `maxInFlight` at once, none that would wait longer than `maxWaitMs` for a worker,
 * and none while the server holds more than `maxPendingAnswerBytes` of answers that their
 * clients have not read (an admitted request's answer is checked against it again once
 * made: reserveAnswer). Under overload the service sheds what it cannot serve in time, and
 * what it admits waits behind a bounded queue. A request counts until its answer is written,
 * not until its handler returns: a client that stops reading holds its place (and its key's:
 * the key's own limits, http/key-limits.ts, are told through `answerWritten`) until it reads
 * or its connection is cut (limits.writeStallMs).
 */
export function admission({ maxInFlight, maxWaitMs, expectedWaitMs, maxPendingAnswerBytes }: AdmissionOptions): MiddlewareHandler<AppEnv> {
  let inFlight = 0;
  return async (c, next) => {
    if (inFlight >= maxInFlight) throw QUEUE_FULL;
    if (expectedWaitMs() > maxWaitMs) throw TOO_SLOW;
    const pendingBytes = c.env.pendingAnswerBytes;
    if (pendingBytes > maxPendingAnswerBytes) throw answersUnread(pendingBytes, maxPendingAnswerBytes);
    inFlight++;
    c.set('maxPendingAnswerBytes', maxPendingAnswerBytes);
    try {
      await next();
    } catch (error) {
      // Hono makes an answer of an Error thrown below; what else is thrown passes here, and is no answer to wait for.
      inFlight--;
      throw error;
    }
    c.set(
      'answerWritten',
      new Promise((written) =>
        c.env.whenWritten(() => {
          inFlight--;
          written();
        }),
      ),
    );
  };
}

/**
 * Called with an admitted request's answer once its bytes exist, before they are sent: from
 * then they count in the bytes of unread answers (admission counts only what the server holds,
 * so up to maxInFlight answers being made could pass the bound unseen). Past
 * limits.maxPendingAnswerBytes the answer is dropped and 503 answers instead. An answer is
 * given alone, when no other is held, however large: else one past the bound would never be.
 * A request no admission counted (the docs, a refusal) is not charged.
 */
export function reserveAnswer(c: Context<AppEnv>, bytes: number): void {
  const maxPendingAnswerBytes = c.get('maxPendingAnswerBytes');
  if (maxPendingAnswerBytes === undefined) return;
  const pendingBytes = c.env.pendingAnswerBytes;
  if (pendingBytes > 0 && pendingBytes + bytes > maxPendingAnswerBytes) {
    throw refusal(
      `This answer of ${formatBytes(bytes)} would take the answers that their clients have not read yet to ${formatBytes(pendingBytes + bytes)}, more than limits.maxPendingAnswerBytes (${formatBytes(maxPendingAnswerBytes)}) allows; retry shortly.`,
      'answers_unread',
    );
  }
  c.env.reserve(bytes);
}

function answersUnread(pendingBytes: number, maxPendingAnswerBytes: number): RefusedError {
  return refusal(
    `The service holds ${formatBytes(pendingBytes)} of answers that their clients have not read yet, more than limits.maxPendingAnswerBytes (${formatBytes(maxPendingAnswerBytes)}) allows; retry shortly.`,
    'answers_unread',
  );
}

const formatBytes = (count: number) => `${count.toLocaleString('en-US')} bytes`;
