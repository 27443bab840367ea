/**
 * The seed and the number of runs of property-based tests, settable from the environment so
 * that a failure replays (SHAPESHOT_FC_SEED, with SHAPESHOT_FC_PATH for the failing case
 * fast-check names) and a long run is one variable away (SHAPESHOT_FC_RUNS=5000, or
 * `npm run test:generated`). CI runs each property the bounded number its test states.
 */
import type { Parameters } from 'fast-check';

const fromEnv = (name: string) => {
  const text = process.env[name];
  if (text === undefined || text === '') return undefined;
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer; got '${text}'.`);
  return value;
};

/** One seed for the whole file, printed with every failure: set SHAPESHOT_FC_SEED to it to replay. */
export const FC_SEED = fromEnv('SHAPESHOT_FC_SEED') ?? (Date.now() ^ (Math.random() * 0x1_0000_0000)) | 0;

/** How many times a long run multiplies every property's runs: SHAPESHOT_FC_RUNS is the largest property's count. */
const requestedRuns = fromEnv('SHAPESHOT_FC_RUNS');

/**
 * fast-check's parameters for a property that CI runs `ciRuns` times. A long run scales every
 * property alike, so that SHAPESHOT_FC_RUNS=5000 runs the largest 5000 times.
 */
export function fcParameters<T>(ciRuns: number, largestCiRuns: number): Parameters<T> {
  const numRuns = requestedRuns === undefined ? ciRuns : Math.max(1, Math.round((requestedRuns * ciRuns) / largestCiRuns));
  const path = process.env.SHAPESHOT_FC_PATH;
  return {
    seed: FC_SEED,
    numRuns,
    ...(path ? { path } : {}),
    // Shrinking re-sends requests to a server that a failure may have left unwell: on demand only.
    endOnFailure: process.env.SHAPESHOT_FC_SHRINK !== '1',
    reporter: (details) => {
      if (!details.failed) return;
      throw new Error(
        `${'errorInstance' in details && details.errorInstance instanceof Error ? details.errorInstance.message : 'the property failed'}\n` +
          `Counterexample: ${JSON.stringify(details.counterexample, null, 1)?.slice(0, 4000)}\n` +
          `Replay: SHAPESHOT_FC_SEED=${details.seed} SHAPESHOT_FC_PATH=${details.counterexamplePath} (${details.numRuns} runs before it)`,
      );
    },
  };
}
