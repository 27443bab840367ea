/**
 * The XML envelope, as .NET's DataContractSerializer reads it: elements in the interface's
 * order, all in the schema namespace, nulls as i:nil. Order and namespace are contract. The
 * head and tail are written here; each image's element comes ready-made from the drawing
 * worker that drew it (image-xml.ts), so the main thread only puts bytes side by side.
 */
import { answerTooLarge, type AnswerLimit } from './answer-limit.ts';
import { BoundedBytes } from './bounded-bytes.ts';
import { legendXml } from './legend-parts.ts';
import { LEGEND_RESOURCE_TYPE, RESOURCE_TYPE, USAGE_RESOURCE_TYPE, type Envelope } from './model.ts';
import { usageXml } from './usage-parts.ts';
import { emptyElement, endTag, NIL, startTag, textElement, XSI } from './xml-markup.ts';

/** The envelope as UTF-8; past `limit` (a success's answer limit) the limit's 400 is thrown. */
export function envelopeToXml(envelope: Envelope, namespace: string, limit?: AnswerLimit): Uint8Array {
  const out = new BoundedBytes(limit?.maxBytes ?? Infinity, (bytes) => answerTooLarge(bytes, limit!));
  out.text(
    '<?xml version="1.0" encoding="utf-8"?>' +
      startTag('Response', { xmlns: namespace, 'xmlns:i': XSI }) +
      textElement('Copyright', envelope.copyright) +
      textElement('StatusCode', String(envelope.statusCode)) +
      textElement('StatusDescription', envelope.statusDescription) +
      (envelope.errorDetails ? textElement('ErrorDetails', envelope.errorDetails) : emptyElement('ErrorDetails')) +
      textElement('TraceId', envelope.traceId),
  );
  const { resource } = envelope;
  if (resource === null) {
    out.text(emptyElement('Resource', NIL));
  } else if ('kind' in resource && resource.kind === 'usage') {
    out.text(startTag('Resource', { 'i:type': USAGE_RESOURCE_TYPE }) + usageXml(resource) + endTag('Resource'));
  } else if ('kind' in resource) {
    out.text(
      startTag('Resource', { 'i:type': LEGEND_RESOURCE_TYPE }) + textElement('Shapefile', resource.shapefile) + legendXml(resource.legend) + endTag('Resource'),
    );
  } else {
    out.text(startTag('Resource', { 'i:type': RESOURCE_TYPE }) + textElement('ItemId', String(resource.itemId)) + textElement('Shapefile', resource.shapefile));
    if (resource.images.length === 0) {
      out.text(emptyElement('ShapefileFeatureImages'));
    } else {
      out.text(startTag('ShapefileFeatureImages'));
      for (const image of resource.images) out.bytes(image);
      out.text(endTag('ShapefileFeatureImages'));
    }
    if (resource.legend) out.text(legendXml(resource.legend));
    out.text(endTag('Resource'));
  }
  out.text(endTag('Response'));
  return out.finish();
}
