/**
 * The seam between the app, which admits work, and the runtime's server, which writes the
 * answers. An answer is not done when its handler returns: a client that does not read keeps
 * it in the server's memory. So an admitted request keeps its admission slot until its answer
 * is written, and the bytes the server still holds for clients bound what is admitted
 * (decisions.md, "Cost, load and cancellation"). Only the server knows either: each runtime
 * hands the app one of these per request, as Hono's `c.env`.
 */
export interface AnswerDelivery {
  /**
   * Runs `written` once, when this request's answer has been written (its last byte handed
   * to the network) or its connection has closed. At most one caller per request.
   */
  whenWritten(written: () => void): void;
  /** Bytes of answers handed to the server and not yet written, over all its connections. */
  readonly pendingAnswerBytes: number;
}
