/**
 * What a drawing worker hands the main thread for one drawn image: in the envelope formats
 * its part of the envelope, written there as UTF-8 (the main thread only puts the parts
 * between the envelope's head and tail); for format=png, svg and jpeg the picture alone.
 * Either within the room the answer's limit leaves it.
 */
import type { Format } from '../params/fields.ts';
import { answerTooLarge, type AnswerRoom } from './answer-limit.ts';
import { BoundedBytes } from './bounded-bytes.ts';
import { writeImageJson } from './image-json.ts';
import { writeImageXml } from './image-xml.ts';
import type { FeatureImage } from './model.ts';

export function imagePart(image: FeatureImage, format: Format, room: AnswerRoom): Uint8Array {
  const out = new BoundedBytes(room.maxBytes - room.usedBytes, (bytes) => answerTooLarge(room.usedBytes + bytes, room));
  switch (format) {
    case 'xml':
      writeImageXml(image, out);
      return out.finish();
    case 'json':
      writeImageJson(image, out);
      return out.finish();
    default:
      // The picture alone goes as it is, without a copy.
      out.bytes(image.bytes);
      return image.bytes;
  }
}
