/** The image map of a drawn image or map: its hot spots, with attribute values when asked for. */
import type { Shape } from '../geometry/shape.ts';
import { withAttributes } from '../hotspots/attributes.ts';
import { fieldsNamedIn } from '../shapefile/dbf.ts';
import { hotSpotsFor, type HotSpot } from '../hotspots/hotspots.ts';
import type { PixelTransform } from '../projection/fit.ts';
import type { OpenShapefile } from '../shapefile/file-set.ts';
import type { DrawStyle } from '../svg/style.ts';
import { hotSpotShapes, type PixelShapesOptions } from './pixel-shapes.ts';

/** What a job of the images or the map operation asks of its hot spots. */
export interface HotSpotRequest {
  includeHotSpots: boolean;
  /** Attribute values added to each hot spot (names as the request spells them). */
  hotSpotFields?: readonly string[];
}

/**
 * A drawing, feature by feature: ids, the shapes placed by `transform` (in the drawing's own
 * space: the file's units for an image, Web Mercator for a map) and the same in CSS pixels as
 * drawn, with the reduction that made those.
 */
export interface DrawnFeatures {
  ids: readonly { fid: string; featureId: number }[];
  shapes: readonly Shape[];
  pixels: Shape[];
  transform: PixelTransform;
  reduction: PixelShapesOptions;
  width: number;
  height: number;
  style: Pick<DrawStyle, 'lineWidth' | 'pointRadius'>;
}

/** The fields a job's hot spots carry, in their `.dbf` spelling, and the file to read them from. */
export interface HotSpotAttributes {
  shapefile: OpenShapefile;
  fieldNames: string[];
}

/**
 * The fields the request's hot spots carry (undefined for none), resolved before anything is
 * drawn: an unknown one is a 400 that costs no render. `shapefile` is opened only for them.
 */
export function hotSpotAttributes(request: HotSpotRequest, shapefile: () => OpenShapefile): HotSpotAttributes | undefined {
  if (!request.includeHotSpots || !request.hotSpotFields?.length) return undefined;
  const open = shapefile();
  return { shapefile: open, fieldNames: fieldsNamedIn(open, 'hotSpotFields', request.hotSpotFields) };
}

/** The hot spots of `drawn` (null when the request asks for none), at scale 1 whatever the picture's scale. */
export function imageHotSpots(request: HotSpotRequest, drawn: DrawnFeatures, attributes: HotSpotAttributes | undefined): HotSpot[] | null {
  if (!request.includeHotSpots) return null;
  const { width, height, style, reduction } = drawn;
  const pixels = hotSpotShapes(drawn.pixels, drawn.shapes, drawn.transform, reduction);
  const hotSpots = hotSpotsFor(
    drawn.ids.map((id, i) => ({ fid: id.fid, featureId: id.featureId, pixels: pixels[i] })),
    { width, height, lineWidth: style.lineWidth, pointRadius: style.pointRadius },
    reduction.checkpoint,
  );
  if (!attributes) return hotSpots;
  const { shapefile, fieldNames } = attributes;
  return withAttributes(hotSpots, fieldNames, (fid) => shapefile.readAttributes(fid));
}
