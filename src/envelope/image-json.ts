/**
 * One image's object in the JSON envelope's ShapefileFeatureImages, written on the drawing
 * worker that drew the image: fields in the interface's order, the PNG as its list of byte
 * values, then its hot spots.
 */
import { byteList } from './byte-list.ts';
import type { BoundedBytes } from './bounded-bytes.ts';
import type { FeatureImage } from './model.ts';

export function writeImageJson(image: FeatureImage, out: BoundedBytes): void {
  out.text(`{"ItemId":${image.itemId},"FeatureId":${image.featureId},"FeatureImage":[`);
  out.deferred(byteList(image.bytes));
  out.text('],"FeatureHotSpots":');
  if (image.hotSpots === null) {
    out.text('null');
  } else {
    // One hot spot at a time: the limit is met before the text of the rest is made.
    image.hotSpots.forEach((spot, i) => out.text(`${i === 0 ? '[' : ','}${JSON.stringify(spot)}`));
    out.text(image.hotSpots.length === 0 ? '[]' : ']');
  }
  out.text('}');
}
