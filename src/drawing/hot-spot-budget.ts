/**
 * What an answer's hot spots may carry (docs/decisions.md, "Cost, load and cancellation"): at
 * most `limits.maxHotSpots` of them, and at most `limits.maxHotSpotAttributeBytes` of
 * `hotSpotFields` values. Both are counted before any record is decoded or any `.dbf` row
 * read: hot spots from the records' part counts (a hot spot per part, ring or point, one
 * for a listed child), attribute bytes from the fields' widths in the `.dbf` header.
 */
import { Buffer } from 'node:buffer';
import { BadRequestError } from '../errors.ts';
import type { FeatureRef } from '../params/fid.ts';
import type { StoredField } from '../shapefile/dbf.ts';
import type { OpenShapefile } from '../shapefile/file-set.ts';
import { perParent } from '../job-context/listed-features.ts';
import type { HotSpotAttributes } from './image-hot-spots.ts';

export interface HotSpotLimits {
  maxHotSpots: number;
  maxHotSpotAttributeBytes: number;
}

/**
 * What an attribute takes in an envelope besides its value and name: XML's
 * `<Attribute Name="">` and `</Attribute>` (JSON's `"":"",` takes less).
 */
const ATTRIBUTE_MARKUP_BYTES = 30;

/** The most hot spots the listed features can give: each record's parts counted once per listing, a child one. */
export function listedHotSpotBound(shapefile: OpenShapefile, refs: readonly FeatureRef[]): number {
  const whole = refs.filter((ref) => ref.child === undefined);
  const bounds = perParent(whole, (parents) => shapefile.partBounds(parents));
  return refs.length - whole.length + whole.reduce((hotSpots, { parent }) => hotSpots + bounds.get(parent)!, 0);
}

/** The bytes one hot spot's attribute values can take: each field's `.dbf` width, name and markup. */
export function attributeBytesPerHotSpot(fields: readonly StoredField[], fieldNames: readonly string[]): number {
  const widths = new Map(fields.map((field) => [field.name, field.width]));
  return fieldNames.reduce((bytes, name) => bytes + (widths.get(name) ?? 0) + Buffer.byteLength(name) + ATTRIBUTE_MARKUP_BYTES, 0);
}

/**
 * Refuses an answer whose `hotSpots` (an upper bound) are more than the limit allows, or
 * whose attribute values would take more bytes. `fewer` says how to ask for fewer features
 * (it differs between images and maps).
 */
export function checkHotSpotBudget(hotSpots: number, attributes: HotSpotAttributes | undefined, limits: HotSpotLimits, fewer: string): void {
  if (hotSpots > limits.maxHotSpots) {
    throw new BadRequestError(
      `The answer would carry up to ${hotSpots} hot spots; at most ${limits.maxHotSpots} (limits.maxHotSpots) are allowed ` +
        `in one answer. ${fewer}, or leave the hot spots out ('includeHotSpots=0').`,
    );
  }
  if (!attributes) return;
  const perHotSpot = attributeBytesPerHotSpot(attributes.shapefile.fields, attributes.fieldNames);
  const bytes = hotSpots * perHotSpot;
  if (bytes > limits.maxHotSpotAttributeBytes) {
    throw new BadRequestError(
      `The values of 'hotSpotFields' would take up to ${bytes} bytes (${hotSpots} hot spots of ${perHotSpot} bytes each, ` +
        `by the fields' widths in the .dbf); at most ${limits.maxHotSpotAttributeBytes} (limits.maxHotSpotAttributeBytes) ` +
        `are allowed in one answer. Name fewer or narrower fields in 'hotSpotFields', or ask for fewer features: ${lowerFirst(fewer)}.`,
    );
  }
}

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
