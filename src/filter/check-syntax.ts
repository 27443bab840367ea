/**
 * A filter's syntax alone, for text that is written before any file is known (a theme's
 * rules): typing against the fields happens when a request names a file.
 */
import { parseFilter } from './parse.ts';

/** Throws the BadRequestError ("Invalid filter: …") naming the first syntax problem of `text`, or its length past MAX_FILTER_LENGTH. */
export function checkFilterSyntax(text: string): void {
  parseFilter(text);
}
