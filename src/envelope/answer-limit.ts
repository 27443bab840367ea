/**
 * `limits.maxAnswerBytes`: the most bytes one answer may have, and the 400 past it. Checked
 * where the size becomes known: on the drawing worker as it writes an image's part (before
 * the part's bytes are allocated, so an answer too large never reaches the main thread),
 * and on the main thread once the envelope's head is added.
 */
import { BadRequestError } from '../errors.ts';

export interface AnswerLimit {
  /** limits.maxAnswerBytes. */
  maxBytes: number;
  /** What the request can change to get a smaller answer: sentences, for the 400. */
  advice: string;
}

/** An answer limit as a drawing job carries it: with the bytes the answer's earlier images took. */
export interface AnswerRoom extends AnswerLimit {
  usedBytes: number;
}

export function answerTooLarge(bytes: number, limit: AnswerLimit): BadRequestError {
  return new BadRequestError(
    `The answer would be more than ${bytes} bytes long; at most ${limit.maxBytes} bytes (limits.maxAnswerBytes) ` +
      `can be sent in one answer. ${limit.advice}`,
  );
}
