/** How the runtime tests compare answers: the same checkout on Node, Deno and Bun, from any data source. */
import { createHash } from 'node:crypto';
import type { ServerProcess } from '../../bench/server-process.ts';
import { decodePng } from './png.ts';

/**
 * An answer with what may differ between runtimes taken out: the TraceId (time and random
 * id) and the PNG encoding (each runtime's zlib deflates differently), which is replaced by
 * a digest of the decoded pixels. All else is compared byte for byte.
 */
export async function comparable(server: ServerProcess, path: string) {
  const response = await fetch(`${server.origin}${path}`);
  const type = response.headers.get('content-type') ?? '';
  const bytes = new Uint8Array(await response.arrayBuffer());
  let body: string;
  if (type.startsWith('image/png')) body = pixelDigest(bytes);
  else if (type.startsWith('application/json')) body = JSON.stringify(JSON.parse(new TextDecoder().decode(bytes)), jsonReplacer);
  else
    body = new TextDecoder()
      .decode(bytes)
      .replace(/<TraceId>[^<]*<\/TraceId>/, '<TraceId/>')
      .replace(/<FeatureImage>([^<]*)<\/FeatureImage>/g, (_, base64: string) => pixelDigest(Buffer.from(base64, 'base64')));
  return { status: response.status, type, traceId: response.headers.has('x-trace-id'), body };
}

function jsonReplacer(key: string, value: unknown) {
  if (key === 'TraceId') return '';
  if (key === 'FeatureImage') return pixelDigest(Uint8Array.from(value as number[]));
  return value;
}

function pixelDigest(png: Uint8Array): string {
  const image = decodePng(png);
  return `png ${image.width}x${image.height} ${createHash('sha256').update(image.data).digest('hex')}`;
}

/** An envelope's text without its TraceId (each answer has its own), XML or JSON. */
export function withoutTraceId(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes).replace(/<TraceId>[^<]*<\/TraceId>|"TraceId":"[^"]*"/g, '');
}
