/**
 * How long work lets itself be stopped, in one place below everything that does such work:
 * a worker job hands its loops a checkpoint that throws once the job is to stop (the client
 * has gone, the time budget is spent), and loops that count their elementary steps (ring
 * organization, the /ogc bbox scan, reprojection) call it through a StepPacer, so a throw
 * there stops the work within STEPS_PER_CHECKPOINT steps wherever it is, at the price of one
 * subtraction a step.
 */

/** Called now and then in long loops; it throws to stop the work. */
export type Checkpoint = () => void;

/** For work that nobody stops (a caller without a job around it). */
export const noCheckpoint: Checkpoint = () => undefined;

export const STEPS_PER_CHECKPOINT = 50_000;

/** Calls the checkpoint once per STEPS_PER_CHECKPOINT of the steps it is told of. */
export class StepPacer {
  private left = STEPS_PER_CHECKPOINT;

  constructor(private readonly checkpoint: Checkpoint) {}

  step(count = 1): void {
    this.left -= count;
    if (this.left <= 0) {
      this.left = STEPS_PER_CHECKPOINT;
      this.checkpoint();
    }
  }
}
