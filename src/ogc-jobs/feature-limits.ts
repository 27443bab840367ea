/**
 * What a page of features (an /ogc items page, one feature) may hold, as the configuration
 * sets it: read on the main thread, which asks for the page, and on the worker that writes it;
 * a module of its own so that the main thread loads nothing else of the workers' jobs.
 */
import type { Config } from '../config/schema.ts';

export interface FeatureLimits {
  /** Most vertices (as stored) one answer may hold. */
  maxPageVertices: number;
  maxRings: number;
  /** limits.maxAnswerBytes: most bytes of GeoJSON one answer may have. */
  maxAnswerBytes: number;
}

/** The limits the configuration sets a page of features (ogc.maxPageVertices, limits.maxRings and limits.maxAnswerBytes). */
export function featureLimits({ ogc, limits }: Pick<Config, 'ogc' | 'limits'>): FeatureLimits {
  return { maxPageVertices: ogc.maxPageVertices, maxRings: limits.maxRings, maxAnswerBytes: limits.maxAnswerBytes };
}
