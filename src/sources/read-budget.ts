/**
 * The bytes one request may fetch from a data source (`limits.maxSourceBytes`): a request
 * that would read more stops before the read that would pass the bound, with a 400 naming
 * the limit. Only bytes fetched count: what the block cache already holds is free.
 */
import { SourceBudgetError } from './source-errors.ts';

export interface ReadBudget {
  /** Counts `bytes` about to be fetched from `source` (its describe()); SourceBudgetError, and nothing counted, when they would pass the bound. */
  charge(bytes: number, source: string): void;
  /** Bytes counted so far. */
  readonly spent: number;
}

export function readBudget(maxBytes: number): ReadBudget {
  let spent = 0;
  return {
    charge(bytes, source) {
      if (spent + bytes > maxBytes) throw new SourceBudgetError(source, maxBytes);
      spent += bytes;
    },
    get spent() {
      return spent;
    },
  };
}
