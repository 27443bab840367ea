/**
 * `limits.maxAnswerBytes` as an images, map or legend request meets it: the limit, and what that
 * request can change to get a smaller answer, which differs with the operation and format.
 */
import type { AnswerLimit } from '../envelope/answer-limit.ts';
import { IMAGE_CONTENT_TYPES, type Format } from '../params/fields.ts';

export function answerLimitFor(maxBytes: number, operation: 'images' | 'map' | 'legend', format: Format): AnswerLimit {
  return { maxBytes, advice: adviceFor(operation, format) };
}

function adviceFor(operation: 'images' | 'map' | 'legend', format: Format): string {
  if (operation === 'legend') return "Ask for fewer classes ('classes', or 'styleBy' a field with fewer distinct values).";
  if (IMAGE_CONTENT_TYPES[format]) {
    if (operation === 'images') return "Ask for a smaller 'size' or 'scale', or fewer or simpler features in the picture ('fid', 'where', 'reduceTol').";
    return format === 'png' ? "Ask for a smaller 'size' or 'scale', or 'format=jpeg'." : "Ask for a smaller 'size' or 'scale'.";
  }
  const fewer =
    operation === 'images'
      ? "fewer images ('singleImage=1', fewer ids in 'fid' or a narrower 'where'), fewer hot spots or 'hotSpotFields', or the first picture alone ('format=png')"
      : "fewer hot spots or 'hotSpotFields', or the picture alone ('format=png' or 'format=jpeg')";
  // JSON's list of byte values takes about 3.6 bytes a byte of the PNG; XML's base64 1.33.
  const xml = format === 'json' ? "'format=xml' (its base64 takes less than half the bytes of JSON's list of byte values), " : '';
  return `Ask for ${xml}a smaller 'size' or 'scale', ${fewer}.`;
}
