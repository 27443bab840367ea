/**
 * An answer's body read to at most `maxBytes`: a tile or map server, or a data source, that
 * sends more (a misconfigured URL serving a file, a hostile server) is cut off instead of
 * filling memory. Shared by the basemap plugins (through the SDK) and the data sources.
 * Undefined when the body is larger; the read stops there.
 */
export async function boundedBody(
  response: { headers: { get(name: string): string | null }; body: { cancel(): Promise<unknown> } | null },
  maxBytes: number,
): Promise<Uint8Array | undefined> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes || !response.body) {
    await response.body?.cancel();
    return declared > maxBytes ? undefined : new Uint8Array(0);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      await response.body.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(chunk);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}
