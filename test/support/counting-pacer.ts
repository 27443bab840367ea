/** A pacer that counts the steps it is told of: how tests bound an algorithm's work by steps, never by time. */
import { StepPacer } from '../../src/cancellation/checkpoint.ts';

export class CountingPacer extends StepPacer {
  steps = 0;
  constructor() {
    super(() => undefined);
  }
  override step(count = 1): void {
    this.steps += count;
  }
}
