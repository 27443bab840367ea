import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces.js';
import type { AttributeValue } from '../shapefile/dbf.ts';
import { xmlSafe } from '../xml-text.ts';
import { RESOURCE_TYPE, type Envelope, type FeatureImage } from './model.ts';

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

let xmlBuilder: Promise<typeof import('xmlbuilder2')> | undefined;

/**
 * xmlbuilder2 takes about 120 ms to load, an eighth of the server's start-up, and only XML
 * answers need it: it is loaded on first use (the entry points warm it once listening).
 */
export const loadXmlBuilder = () => (xmlBuilder ??= import('xmlbuilder2'));

/**
 * The envelope as .NET's DataContractSerializer reads it: elements in the interface's
 * order, all in the schema namespace, nulls as i:nil. Order and namespace are contract.
 * Every text goes through xmlSafe(), so the envelope is well-formed whatever a request
 * sent (a NUL echoed in an error, say).
 */
export async function envelopeToXml(envelope: Envelope, namespace: string): Promise<string> {
  const { create } = await loadXmlBuilder();
  const root = create({ version: '1.0', encoding: 'utf-8' })
    .ele(namespace, 'Response')
    .att('http://www.w3.org/2000/xmlns/', 'xmlns:i', XSI);
  root.ele('Copyright').txt(xmlSafe(envelope.copyright));
  root.ele('StatusCode').txt(String(envelope.statusCode));
  root.ele('StatusDescription').txt(xmlSafe(envelope.statusDescription));
  const details = root.ele('ErrorDetails');
  if (envelope.errorDetails) details.txt(xmlSafe(envelope.errorDetails));
  root.ele('TraceId').txt(xmlSafe(envelope.traceId));
  const resource = root.ele('Resource');
  if (envelope.resource === null) {
    resource.att(XSI, 'i:nil', 'true');
  } else {
    resource.att(XSI, 'i:type', RESOURCE_TYPE);
    resource.ele('ItemId').txt(String(envelope.resource.itemId));
    resource.ele('Shapefile').txt(xmlSafe(envelope.resource.shapefile));
    const images = resource.ele('ShapefileFeatureImages');
    for (const image of envelope.resource.images) appendImage(images, image);
  }
  return root.end({ prettyPrint: false });
}

function appendImage(parent: XMLBuilder, image: FeatureImage) {
  const element = parent.ele('ShapefileFeatureImage');
  element.ele('ItemId').txt(String(image.itemId));
  element.ele('FeatureId').txt(String(image.featureId));
  element.ele('FeatureImage').txt(Buffer.from(image.bytes.buffer, image.bytes.byteOffset, image.bytes.byteLength).toString('base64'));
  const hotSpots = element.ele('FeatureHotSpots');
  if (image.hotSpots === null) {
    hotSpots.att(XSI, 'i:nil', 'true');
    return;
  }
  for (const spot of image.hotSpots) {
    const area = hotSpots.ele('HotSpot');
    area.ele('FeatureId').txt(String(spot.FeatureId));
    area.ele('Fid').txt(xmlSafe(spot.Fid));
    area.ele('Shape').txt(xmlSafe(spot.Shape));
    area.ele('Coords').txt(xmlSafe(spot.Coords));
    if (spot.Attributes) appendAttributes(area, spot.Attributes);
  }
}

/** hotSpotFields=: after the interface's own members, so that .NET clients still read those. */
function appendAttributes(area: XMLBuilder, attributes: Record<string, AttributeValue>) {
  const element = area.ele('Attributes');
  for (const [name, value] of Object.entries(attributes)) {
    const attribute = element.ele('Attribute').att('Name', xmlSafe(name));
    if (value === null) attribute.att(XSI, 'i:nil', 'true');
    else attribute.txt(xmlSafe(String(value)));
  }
}
