/**
 * One image's `<ShapefileFeatureImage>` element of the XML envelope, written on the drawing
 * worker that drew the image: the PNG in base64, then its hot spots with their attribute
 * values. Elements in the interface's order, in the envelope's default namespace (declared
 * on its root), nulls as i:nil.
 */
import { Buffer } from 'node:buffer';
import type { HotSpot } from '../hotspots/hotspots.ts';
import type { AttributeValue } from '../shapefile/dbf.ts';
import type { BoundedBytes } from './bounded-bytes.ts';
import type { FeatureImage } from './model.ts';
import { emptyElement, endTag, NIL, startTag, textElement } from './xml-markup.ts';

export function writeImageXml(image: FeatureImage, out: BoundedBytes): void {
  out.text(`${startTag('ShapefileFeatureImage')}${textElement('ItemId', String(image.itemId))}${textElement('FeatureId', String(image.featureId))}`);
  out.deferred(base64Element('FeatureImage', image.bytes));
  if (image.hotSpots === null) {
    out.text(emptyElement('FeatureHotSpots', NIL));
  } else if (image.hotSpots.length === 0) {
    out.text(emptyElement('FeatureHotSpots'));
  } else {
    out.text(startTag('FeatureHotSpots'));
    // One hot spot at a time: the limit is met before the text of the rest is made.
    for (const spot of image.hotSpots) out.text(hotSpotXml(spot));
    out.text(endTag('FeatureHotSpots'));
  }
  out.text(endTag('ShapefileFeatureImage'));
}

/** `<name>` and the bytes in base64: its length is known before the text is made. */
function base64Element(name: string, bytes: Uint8Array) {
  const [start, end] = [startTag(name), endTag(name)];
  return {
    length: start.length + 4 * Math.ceil(bytes.length / 3) + end.length,
    writeInto(target: Uint8Array) {
      const text = Buffer.from(target.buffer, target.byteOffset, target.byteLength);
      let at = text.write(start, 0, 'latin1');
      at += text.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'), at, 'latin1');
      text.write(end, at, 'latin1');
    },
  };
}

function hotSpotXml(spot: HotSpot): string {
  return (
    startTag('HotSpot') +
    textElement('FeatureId', String(spot.FeatureId)) +
    textElement('Fid', spot.Fid) +
    textElement('Shape', spot.Shape) +
    textElement('Coords', spot.Coords) +
    (spot.Attributes ? attributesXml(spot.Attributes) : '') +
    (spot.Class === undefined ? '' : textElement('Class', String(spot.Class))) +
    endTag('HotSpot')
  );
}

/** hotSpotFields=: after the interface's own members, so that .NET clients still read those. */
function attributesXml(attributes: Record<string, AttributeValue>): string {
  const names = Object.keys(attributes);
  if (names.length === 0) return emptyElement('Attributes');
  let text = startTag('Attributes');
  for (const name of names) {
    const value = attributes[name];
    text += value === null ? emptyElement('Attribute', { Name: name, ...NIL }) : textElement('Attribute', String(value), { Name: name });
  }
  return text + endTag('Attributes');
}
