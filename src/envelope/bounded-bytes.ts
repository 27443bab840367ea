/**
 * An envelope, or one image's part of it, as UTF-8 bytes, written piece by piece under a
 * limit on its length. The length is counted as the pieces come, before the bytes are
 * allocated: a part past the limit is refused having cost no more than the pieces so far,
 * and the one allocation at the end has the exact size, so what a drawing worker hands to
 * the main thread (and the main thread holds until it is sent) wastes nothing.
 */
import { Buffer } from 'node:buffer';

/** A piece whose length is known before it is made, written straight into the result. */
export interface DeferredPiece {
  length: number;
  writeInto(target: Uint8Array): void;
}

type Piece = string | Uint8Array | DeferredPiece;

const encoder = new TextEncoder();

export class BoundedBytes {
  private readonly pieces: Piece[] = [];
  private length = 0;

  /** `refuse(bytes)` is thrown as soon as the pieces would take more than `limit` bytes. */
  constructor(
    private readonly limit: number,
    private readonly refuse: (bytes: number) => Error,
  ) {}

  text(text: string): void {
    this.add(text, Buffer.byteLength(text, 'utf8'));
  }

  bytes(bytes: Uint8Array): void {
    this.add(bytes, bytes.length);
  }

  /** A piece made only once its length is known to fit. */
  deferred(piece: DeferredPiece): void {
    this.add(piece, piece.length);
  }

  /** The pieces as one array of exactly their length. */
  finish(): Uint8Array<ArrayBuffer> {
    const result = new Uint8Array(this.length);
    let at = 0;
    for (const piece of this.pieces) {
      const target = result.subarray(at);
      if (typeof piece === 'string') {
        at += encoder.encodeInto(piece, target).written;
      } else if (piece instanceof Uint8Array) {
        target.set(piece);
        at += piece.length;
      } else {
        piece.writeInto(target.subarray(0, piece.length));
        at += piece.length;
      }
    }
    return result;
  }

  private add(piece: Piece, length: number): void {
    if (this.length + length > this.limit) throw this.refuse(this.length + length);
    this.pieces.push(piece);
    this.length += length;
  }
}
