/**
 * The JSON envelope: the same fields as the XML one in the same order, `__type` first in
 * Resource. The head and tail are written here; each image's object comes ready-made from
 * the drawing worker that drew it (image-json.ts), so the main thread only puts bytes side
 * by side.
 */
import { answerTooLarge, type AnswerLimit } from './answer-limit.ts';
import { BoundedBytes } from './bounded-bytes.ts';
import { legendJson } from './legend-parts.ts';
import { LEGEND_RESOURCE_TYPE, RESOURCE_TYPE, USAGE_RESOURCE_TYPE, type Envelope } from './model.ts';
import { usageJsonMembers } from './usage-parts.ts';

/** The envelope as UTF-8; past `limit` (a success's answer limit) the limit's 400 is thrown. */
export function envelopeToJson(envelope: Envelope, namespace: string, limit?: AnswerLimit): Uint8Array {
  const out = new BoundedBytes(limit?.maxBytes ?? Infinity, (bytes) => answerTooLarge(bytes, limit!));
  const head = JSON.stringify({
    Copyright: envelope.copyright,
    StatusCode: envelope.statusCode,
    StatusDescription: envelope.statusDescription,
    ErrorDetails: envelope.errorDetails,
    TraceId: envelope.traceId,
  });
  const { resource } = envelope;
  if (resource === null) {
    out.text(`${head.slice(0, -1)},"Resource":null}`);
    return out.finish();
  }
  if ('kind' in resource && resource.kind === 'usage') {
    out.text(`${head.slice(0, -1)},"Resource":{"__type":${JSON.stringify(`${USAGE_RESOURCE_TYPE}:${namespace}`)},${usageJsonMembers(resource)}}}`);
    return out.finish();
  }
  if ('kind' in resource) {
    const legendHead = JSON.stringify({ __type: `${LEGEND_RESOURCE_TYPE}:${namespace}`, Shapefile: resource.shapefile });
    out.text(`${head.slice(0, -1)},"Resource":${legendHead.slice(0, -1)},"Legend":${legendJson(resource.legend)}}}`);
    return out.finish();
  }
  const resourceHead = JSON.stringify({ __type: `${RESOURCE_TYPE}:${namespace}`, ItemId: resource.itemId, Shapefile: resource.shapefile });
  out.text(`${head.slice(0, -1)},"Resource":${resourceHead.slice(0, -1)},"ShapefileFeatureImages":[`);
  resource.images.forEach((image, i) => {
    if (i > 0) out.text(',');
    out.bytes(image);
  });
  out.text(resource.legend ? `],"Legend":${legendJson(resource.legend)}}}` : ']}}');
  return out.finish();
}
