/** How `styleBy` sorts features into classes (docs/decisions.md, "Thematic styling"). */
export const CLASSIFY_METHODS = ['categories', 'quantile', 'equal', 'jenks'] as const;
export type ClassifyMethod = (typeof CLASSIFY_METHODS)[number];

/** `classes=N` of the numeric methods. */
export const MIN_CLASSES = 2;
export const MAX_CLASSES = 12;
export const DEFAULT_CLASSES = 5;
