/**
 * A styled picture's hot spots carry their feature's class (docs/decisions.md, "Thematic
 * styling"), so that a page can say what a colour means under the pointer.
 */
import type { HotSpot } from './hotspots.ts';

/** Each hot spot with its feature's class index; a feature no class or rule took gets none. */
export function withClasses(hotSpots: readonly HotSpot[], classOf: (featureId: number) => number | undefined): HotSpot[] {
  return hotSpots.map((spot) => {
    const index = classOf(spot.FeatureId);
    return index === undefined ? spot : { ...spot, Class: index };
  });
}
