/**
 * A map's budgets (docs/decisions.md, "Cost, load and cancellation"): the features and vertices
 * one map may draw, and the 400s past them. Checked by each step of a map that can know
 * them first: map-features.ts for listed features, map-in-view.ts (and draw-map.ts, when
 * the files changed since) for the records in a view.
 */
import { BadRequestError } from '../errors.ts';
import type { HotSpotLimits } from './hot-spot-budget.ts';

export interface MapLimits extends HotSpotLimits {
  /** Most features one map may draw (those in view). */
  maxMapFeatures: number;
  /** Most vertices (as stored, before simplification) one map may draw. */
  maxMapVertices: number;
  maxRings: number;
}

/** What a map request can change to draw fewer features, and so carry fewer hot spots. */
export const FEWER_MAP_FEATURES = "List fewer ids in 'fid', narrow the selection in 'where' or show a smaller area (a higher 'zoom')";

/** `count` features listed; or, with `counted` false, a walk that stopped counting past the limit. */
export function tooManyFeatures(count: number, limit: number, counted = true): BadRequestError {
  return new BadRequestError(
    `The map would draw ${counted ? count : `more than ${limit}`} features; at most ${limit} (limits.maxMapFeatures) can be drawn on one map. ` +
      "List fewer ids in 'fid' or show a smaller area (a higher 'zoom').",
  );
}

export function tooManyVertices(count: number, limit: number): BadRequestError {
  return new BadRequestError(
    `The map's features hold up to ${count} vertices; at most ${limit} (limits.maxMapVertices) can be drawn on one map. ` +
      "List fewer ids in 'fid' or show a smaller area (a higher 'zoom').",
  );
}
