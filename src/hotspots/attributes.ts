/**
 * `hotSpotFields=`: attribute values on each hot spot, so that a page can show a tooltip
 * without asking again.
 */
import { pickFields, type AttributeValue } from '../shapefile/dbf.ts';
import type { HotSpot } from './hotspots.ts';

/** Each hot spot with the values of `fieldNames` of its feature; every feature's row is read once. */
export function withAttributes(
  hotSpots: readonly HotSpot[],
  fieldNames: readonly string[],
  readAttributes: (fid: number) => Record<string, AttributeValue>,
): HotSpot[] {
  const rows = new Map<number, Record<string, AttributeValue>>();
  const valuesOf = (fid: number) => {
    let values = rows.get(fid);
    if (!values) {
      values = pickFields(readAttributes(fid), fieldNames);
      rows.set(fid, values);
    }
    return values;
  };
  return hotSpots.map((spot) => ({ ...spot, Attributes: valuesOf(spot.FeatureId) }));
}
