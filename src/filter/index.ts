/** CQL2 text filters (OGC 21-065, `filter-lang=cql2-text`) over `.dbf` rows: the public face of this folder. */
export { compileFilter, type CompiledFilter } from './compile.ts';
export { MAX_FILTER_DEPTH, MAX_FILTER_LENGTH, MAX_IN_LIST_ITEMS, MAX_LIKE_PATTERN_LENGTH } from './limits.ts';
export { checkFilterSyntax } from './check-syntax.ts';
