/**
 * The bookkeeping every runtime's answer shares (AnswerDelivery): whether admission counted
 * its request, what it is charged in its server's pending bytes, and telling admission once
 * it is written. Each runtime's answer says when bytes move and when it is done; the sums are
 * kept here alone, so that Node's and the web runtimes' answers cannot count differently.
 */
import type { AnswerDelivery } from '../http/answer-delivery.ts';

/** A server's sum of what its admitted answers hold. */
export interface PendingLedger {
  pendingBytes: number;
}

export class AnswerAccount implements AnswerDelivery {
  /** Its request was admitted (whenWritten was called): only then are its bytes charged. */
  protected admitted = false;
  protected finished = false;
  private charged = 0;
  private written: (() => void) | undefined;

  constructor(private readonly ledger: PendingLedger) {}

  get pendingAnswerBytes(): number {
    return this.ledger.pendingBytes;
  }

  whenWritten(written: () => void): void {
    this.admitted = true;
    if (this.finished) written();
    else this.written = written;
  }

  reserve(bytes: number): void {
    if (!this.finished) this.chargeAs(this.charged + bytes);
  }

  /** Counts `bytes` for it from now, in place of what it was charged. */
  protected chargeAs(bytes: number): void {
    this.ledger.pendingBytes += bytes - this.charged;
    this.charged = bytes;
  }

  /** Written, or dropped: nothing is charged for it any more, and admission is told. Once; false when it was already. */
  protected finish(): boolean {
    if (this.finished) return false;
    this.finished = true;
    this.chargeAs(0);
    const written = this.written;
    this.written = undefined;
    written?.();
    return true;
  }
}
