/**
 * What a drawing job answers once its picture is drawn, an image's or a map's alike: its
 * part of the answer (envelope/image-part.ts), written on the worker so that the main
 * thread only puts the parts together.
 */
import type { AnswerRoom } from '../envelope/answer-limit.ts';
import { imagePart } from '../envelope/image-part.ts';
import type { HotSpot } from '../hotspots/hotspots.ts';
import type { Format } from '../params/fields.ts';
import type { Lap } from '../stages.ts';
import type { Handled } from '../workers/serve-jobs.ts';

export interface DrawnImage {
  /** The image as the answer carries it (envelope/image-part.ts): its part of the envelope, or the picture alone. */
  part: Uint8Array;
}

/** What a drawing job answers for the image it drew: its part of the answer, moved rather than copied. */
export function drawnImage(
  picture: Uint8Array,
  hotSpots: HotSpot[] | null,
  job: { itemId: number; featureId: number; format: Format; answer: AnswerRoom },
  lap: Lap,
): Handled<DrawnImage> {
  const part = imagePart({ itemId: job.itemId, featureId: job.featureId, bytes: picture, hotSpots }, job.format, job.answer);
  lap('part');
  return { result: { part }, transfer: [part.buffer as ArrayBuffer] };
}
