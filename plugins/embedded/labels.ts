/**
 * Country label placement: roomiest countries first, a label only where it fits inside its
 * country, lies wholly on the image and overlaps no label placed before it. Each keeps the
 * room it was placed in, which a map that labels its features checks its labels against.
 */
import type { Culture, MapView } from '../../src/sdk/plugin.ts';
import type { Box } from './box.ts';
import type { LabelSite } from './natural-earth.ts';

export interface PlacedLabel {
  text: string;
  /** Centre of the label, image pixels. */
  x: number;
  y: number;
  /** The room it takes: its text and GAP around it, image pixels. */
  box: Box;
}

/** Labels may run past their country's inscribed circle by this much (names are wide, circles round). */
const OVERHANG = 1.6;
/** Free space kept around each label so neighbours do not touch. */
const GAP = 4;
const LINE_HEIGHT = 1.2;

/** Font size of country labels at `zoom`: larger as countries grow on the map. */
export function labelFontSize(zoom: number): number {
  return Math.min(14, 9 + zoom);
}

/** The least room (zoom-0 world pixels) a site needs for a label at `zoom`: placeLabels places none with less. */
export function minLabelRoom(zoom: number): number {
  return (labelFontSize(zoom) * LINE_HEIGHT) / (2 * 2 ** zoom * OVERHANG);
}

export function placeLabels(
  sites: readonly LabelSite[],
  culture: Culture,
  view: MapView,
  worldOffsets: readonly number[],
): PlacedLabel[] {
  const scale = 2 ** view.zoom;
  const fontSize = labelFontSize(view.zoom);
  const height = fontSize * LINE_HEIGHT;
  const placed: PlacedLabel[] = [];
  const taken: Box[] = [];
  for (const site of sites) {
    const room = 2 * site.room * scale * OVERHANG;
    if (room < height) break; // sites are roomiest first: none after this fits either
    const text = site.names[culture];
    const width = textWidth(text, fontSize);
    if (width > room) continue;
    for (const offset of worldOffsets) {
      const x = site.anchor[0] * scale + offset;
      const y = site.anchor[1] * scale - view.top;
      const box = { xmin: x - width / 2 - GAP, ymin: y - height / 2 - GAP, xmax: x + width / 2 + GAP, ymax: y + height / 2 + GAP };
      if (box.xmin < 0 || box.ymin < 0 || box.xmax > view.width || box.ymax > view.height) continue;
      if (taken.some((other) => overlaps(box, other))) continue;
      taken.push(box);
      placed.push({ text, x, y, box });
    }
  }
  return placed;
}

function overlaps(a: Box, b: Box): boolean {
  return a.xmin < b.xmax && b.xmin < a.xmax && a.ymin < b.ymax && b.ymin < a.ymax;
}

/**
 * Noto Sans advance widths in ems, roughly by glyph shape: close enough to keep labels
 * apart without reading the font's metrics tables.
 */
function textWidth(text: string, fontSize: number): number {
  let ems = 0;
  for (const character of text) {
    if (/[ .,'’ilIjft!|:;]/.test(character)) ems += 0.3;
    else if (/[rJ\-()]/.test(character)) ems += 0.38;
    else if (/[mwMW]/.test(character)) ems += 0.88;
    else if (/[A-Z]/.test(character)) ems += 0.66;
    else ems += 0.56;
  }
  return ems * fontSize;
}
