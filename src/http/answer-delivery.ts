/**
 * The seam between the app, which admits work, and the runtime's server, which writes the
 * answers. An answer is not done when its handler returns: a client that does not read keeps
 * it in the server's memory. So an admitted request keeps its admission slot until its answer
 * is written, and the bytes admitted answers hold until their clients have read them bound
 * what is admitted and what an admitted request may answer (docs/decisions.md, "Cost, load and
 * cancellation"). Only the server knows either: each runtime hands the app one of these per
 * request, as Hono's `c.env`.
 */
export interface AnswerDelivery {
  /**
   * Runs `written` once, when this request's answer has been written (its last byte handed
   * to the network) or its connection has closed. At most one caller per request.
   */
  whenWritten(written: () => void): void;
  /**
   * Counts `bytes` of this request's answer in pendingAnswerBytes from now, while the app
   * still holds them (made, not yet handed to the server); once it is handed over, what the
   * server then holds of it counts instead. For admitted requests: the server charges no other.
   */
  reserve(bytes: number): void;
  /**
   * Bytes of admitted requests' answers made and not yet written, over all the server's
   * connections: reserved while they are made, then held by the server for their clients.
   */
  readonly pendingAnswerBytes: number;
}
