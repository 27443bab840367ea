/**
 * One query parameter read straight from the URL, for the steps that need it before (or
 * without) the route's validation: the key, the format errors answer in, whether the key came
 * in the query or a header.
 */

/** Reads a query parameter whatever the case of its name (first value). */
export function queryValue(url: string, name: string): string | undefined {
  const query = url.indexOf('?');
  if (query < 0) return undefined;
  for (const [key, value] of new URLSearchParams(url.slice(query + 1))) {
    if (key.toLowerCase() === name) return value;
  }
  return undefined;
}
