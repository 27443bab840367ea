/**
 * A file's size from a HEAD's Content-Length: a missing header is no size of 0 (a server that
 * compresses may leave it out), so the answer is refused rather than read as an empty file.
 */
export function contentLength(headers: Headers): number {
  const text = headers.get('content-length');
  if (text === null || !/^\d{1,16}$/.test(text.trim()) || headers.get('content-encoding')) return Number.NaN;
  return Number(text);
}
