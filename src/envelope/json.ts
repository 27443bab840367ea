import { RESOURCE_TYPE, type Envelope, type FeatureImage } from './model.ts';

/**
 * The envelope as JSON, fields in the interface's order, `__type` first in Resource.
 * FeatureImage is an array of byte values (the interface's choice); writing it with
 * join() instead of JSON.stringify(Array.from(...)) avoids a boxed array per image.
 */
export function envelopeToJson(envelope: Envelope, namespace: string): string {
  const head = JSON.stringify({
    Copyright: envelope.copyright,
    StatusCode: envelope.statusCode,
    StatusDescription: envelope.statusDescription,
    ErrorDetails: envelope.errorDetails,
    TraceId: envelope.traceId,
  });
  if (envelope.resource === null) return `${head.slice(0, -1)},"Resource":null}`;
  const { itemId, shapefile, images } = envelope.resource;
  const resourceHead = JSON.stringify({ __type: `${RESOURCE_TYPE}:${namespace}`, ItemId: itemId, Shapefile: shapefile });
  const imageList = images.map(imageToJson).join(',');
  return `${head.slice(0, -1)},"Resource":${resourceHead.slice(0, -1)},"ShapefileFeatureImages":[${imageList}]}}`;
}

function imageToJson(image: FeatureImage): string {
  return (
    `{"ItemId":${image.itemId},"FeatureId":${image.featureId},` +
    `"FeatureImage":[${image.png.join(',')}],"FeatureHotSpots":${JSON.stringify(image.hotSpots)}}`
  );
}
