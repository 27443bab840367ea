/**
 * Finds the answers whose clients have stopped reading (limits.writeStallMs). No runtime
 * tells us when a client takes bytes of an answer: a large answer is handed to the socket
 * in one write, whose completion is the only event. So one timer looks at every answer
 * being written a few times per stall period, and an answer whose unsent bytes have not
 * moved since is ended. One timer for all, and none while nothing is being written: a timer
 * per answer would cost every small answer its arming and clearing.
 */
/** Looks per stall period: an answer is ended between 1 and 1 + 1/SWEEPS_PER_STALL periods after its last progress. */
const SWEEPS_PER_STALL = 4;

/** An answer being written, as the watch sees it. */
export abstract class WatchedWrite {
  /** What progressMark() said at the last look. */
  lastMark: number | undefined = Number.NaN;
  /** Looks in a row that found its client waited on and no progress. */
  stillLooks = 0;
  /**
   * A number that changes whenever its client takes bytes; undefined while the client is
   * not being waited on (nothing is buffered for it: the server is still making the answer).
   */
  abstract progressMark(): number | undefined;
  /** Its client has taken nothing for writeStallMs: drop the answer. */
  abstract stalled(): void;
}

export class StallWatch {
  private readonly writes = new Set<WatchedWrite>();
  private timer: ReturnType<typeof setInterval> | undefined;

  /** `onStall`: told of each answer dropped, for the log. */
  constructor(
    readonly writeStallMs: number,
    private readonly onStall: () => void = () => {},
  ) {}

  watch(write: WatchedWrite): void {
    this.writes.add(write);
    if (this.timer) return;
    this.timer = setInterval(() => this.look(), this.writeStallMs / SWEEPS_PER_STALL);
  }

  forget(write: WatchedWrite): void {
    this.writes.delete(write);
  }

  private look(): void {
    if (this.writes.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
      return;
    }
    for (const write of this.writes) {
      const mark = write.progressMark();
      if (mark === undefined || mark !== write.lastMark) {
        write.lastMark = mark;
        write.stillLooks = 0;
      } else if (++write.stillLooks >= SWEEPS_PER_STALL) {
        this.writes.delete(write);
        write.stalled();
        this.onStall();
      }
    }
  }
}
