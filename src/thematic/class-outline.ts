/**
 * The outline of a polygon or point coloured by class or rule (docs/api.md, "Outlines"). The
 * plain picture's outline, 2 px of red, was made to pick out one feature; on a choropleth the
 * fill carries the meaning, and thousands of red outlines would bury it. So what the request
 * (or its theme, or the rule) leaves unnamed of the outline recedes: a hairline in a darker
 * shade of the feature's own fill, which still parts neighbours of one class. Images and maps
 * take their class paints from here alone.
 */
import type { FeaturePaint, Rgba } from '../svg/style.ts';

/** The outline parts a request or its theme named (`lineColor`, `lineWidth`); those left undefined recede. */
export interface NamedOutline {
  lineColor?: Rgba;
  lineWidth?: number;
}

/** CSS pixels: half a pixel, a line anti-aliasing draws faintly, as thin as an edge can be and still show. */
export const RECEDING_OUTLINE_WIDTH = 0.5;

/** What the receding outline keeps of each channel of its fill: dark enough to part two fills of one class, near enough to read as the fill's own edge. */
const RECEDING_SHADE = 0.7;

/** The paint of a coloured polygon or point: its fill, and each outline part as named, else receding. */
export function colouredPaint(fillColor: Rgba, named: NamedOutline): Required<FeaturePaint> {
  return {
    fillColor,
    lineColor: named.lineColor ?? recedingColour(fillColor),
    lineWidth: named.lineWidth ?? RECEDING_OUTLINE_WIDTH,
  };
}

/** The fill's darker shade, its alpha kept (a translucent no-value colour keeps a translucent edge). */
export function recedingColour({ r, g, b, a }: Rgba): Rgba {
  return { r: r * RECEDING_SHADE, g: g * RECEDING_SHADE, b: b * RECEDING_SHADE, a };
}
