/**
 * Paces ring organization for cancellation: every loop of assembleRings reports the
 * elementary steps it takes (a vertex visited, a comparison, an index candidate), and
 * the caller's checkpoint runs once per STEPS_PER_CHECKPOINT of them, so a throw there
 * stops the work within that many steps wherever it is.
 */
export const STEPS_PER_CHECKPOINT = 50_000;

export class StepPacer {
  private left = STEPS_PER_CHECKPOINT;

  constructor(private readonly checkpoint: () => void) {}

  step(count = 1): void {
    this.left -= count;
    if (this.left <= 0) {
      this.left = STEPS_PER_CHECKPOINT;
      this.checkpoint();
    }
  }
}
