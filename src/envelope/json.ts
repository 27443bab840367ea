import { Buffer } from 'node:buffer';
import { byteListJson } from './byte-list.ts';
import { RESOURCE_TYPE, type Envelope, type FeatureImage } from './model.ts';

const encoder = new TextEncoder();

/**
 * The envelope as JSON, fields in the interface's order, `__type` first in Resource, as
 * UTF-8 bytes. FeatureImage is an array of byte values (the interface's choice): its text
 * comes ready-made from the drawing worker when it wrote one (byte-list.ts), and is only
 * written here otherwise.
 */
export function envelopeToJson(envelope: Envelope, namespace: string): Uint8Array {
  const head = JSON.stringify({
    Copyright: envelope.copyright,
    StatusCode: envelope.statusCode,
    StatusDescription: envelope.statusDescription,
    ErrorDetails: envelope.errorDetails,
    TraceId: envelope.traceId,
  });
  if (envelope.resource === null) return encoder.encode(`${head.slice(0, -1)},"Resource":null}`);
  const { itemId, shapefile, images } = envelope.resource;
  const resourceHead = JSON.stringify({ __type: `${RESOURCE_TYPE}:${namespace}`, ItemId: itemId, Shapefile: shapefile });
  const parts: Uint8Array[] = [encoder.encode(`${head.slice(0, -1)},"Resource":${resourceHead.slice(0, -1)},"ShapefileFeatureImages":[`)];
  images.forEach((image, i) => parts.push(...imageToJson(image, i > 0)));
  parts.push(encoder.encode(']}}'));
  return Buffer.concat(parts);
}

function imageToJson(image: FeatureImage, afterAnother: boolean): Uint8Array[] {
  return [
    encoder.encode(`${afterAnother ? ',' : ''}{"ItemId":${image.itemId},"FeatureId":${image.featureId},"FeatureImage":[`),
    image.pngJson ?? byteListJson(image.bytes),
    encoder.encode(`],"FeatureHotSpots":${JSON.stringify(image.hotSpots)}}`),
  ];
}

