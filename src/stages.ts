/**
 * The stages a request's work passes through, timed for the per-stage breakdown a server
 * may send in Server-Timing (config `serverTiming`) and that `npm run bench` reports.
 */

/** Marks the end of a stage: the time since the previous mark is counted to `stage`. */
export type Lap = (stage: string) => void;

export const noLap: Lap = () => undefined;

export interface Stopwatch {
  lap: Lap;
  /** Milliseconds per stage, in the order the stages first ended. */
  readonly stages: Record<string, number>;
}

export function startStopwatch(): Stopwatch {
  const stages: Record<string, number> = {};
  let last = performance.now();
  return {
    lap(stage) {
      const now = performance.now();
      stages[stage] = (stages[stage] ?? 0) + now - last;
      last = now;
    },
    stages,
  };
}

/** Adds `more` into `into`, stage by stage. */
export function addStages(into: Record<string, number>, more: Record<string, number>): void {
  for (const [stage, ms] of Object.entries(more)) into[stage] = (into[stage] ?? 0) + ms;
}

/** A request's stages: those of the main thread, and those its drawing jobs report. */
export interface RequestTiming {
  lap: Lap;
  /**
   * A drawing job has answered: its stages are counted, and what it took besides them
   * (waiting for a worker, moving the job and its answer between threads) counts as 'queue'.
   */
  job(stages: Record<string, number>): void;
}
