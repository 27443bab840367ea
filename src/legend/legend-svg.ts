/**
 * A styled picture's legend drawn as SVG (docs/decisions.md, "Thematic styling"): a white,
 * slightly translucent box with a thin border, the title (the field, or "Rules" for a
 * theme's rules), then one row per class in class order: a swatch of its colour with a thin
 * outline, and its label. The same drawing goes into a picture's corner (legendSvg) and
 * stands alone for the legend route (legendAlone). Text is the bundled font's outlines
 * (text/layout.ts), as labels are: no font to load, the same in any viewer.
 * When the picture is too small, the box gives way rather than leave it: labels are cut with
 * an ellipsis to the picture's width, and rows that do not fit are dropped from the end,
 * the last row saying "… N more"; when not even the title and one row fit, nothing is drawn.
 */
import type { Legend } from '../thematic/legend.ts';
import { labelText } from '../labels/label-text.ts';
import { measureText, textPath } from '../text/layout.ts';
import { escapeXml } from '../xml-text.ts';
import type { BBox } from '../geometry/types.ts';

/** The corners a legend may sit in (`legendPosition`). */
export const LEGEND_POSITIONS = ['bottomright', 'bottomleft', 'topright', 'topleft'] as const;
export type LegendPosition = (typeof LEGEND_POSITIONS)[number];

export interface LegendPlacement {
  /** The picture, CSS pixels. */
  width: number;
  height: number;
  position: LegendPosition;
  /** Pixels kept free at the picture's bottom (a map's attribution strip). */
  bottomInset?: number;
}

/** Between the box and the picture's edge, CSS pixels. */
export const LEGEND_MARGIN = 8;
const PADDING = 6;
const TEXT_SIZE = 12;
const ROW_HEIGHT = 18;
/** Baseline below a row's top: capitals centred on the row. */
const BASELINE = 13;
const SWATCH_WIDTH = 18;
const SWATCH_HEIGHT = 12;
const SWATCH_GAP = 6;
const TEXT_COLOUR = '#222222';

interface Row {
  /** '' for the title and the "… N more" row. */
  color: string;
  text: string;
}

interface LegendBox {
  width: number;
  height: number;
  /** The box's SVG with its top-left corner at (x, y). */
  at(x: number, y: number): string;
}

/** The legend in the picture's corner, and the room it takes there (labels keep clear of it); undefined when it cannot fit. */
export function legendSvg(legend: Legend, { width, height, position, bottomInset = 0 }: LegendPlacement): { svg: string; box: BBox } | undefined {
  const box = legendBox(legend, width - 2 * LEGEND_MARGIN, height - 2 * LEGEND_MARGIN - bottomInset);
  if (!box) return undefined;
  const x = Math.round(position.endsWith('right') ? width - LEGEND_MARGIN - box.width : LEGEND_MARGIN);
  const y = Math.round(position.startsWith('bottom') ? height - bottomInset - LEGEND_MARGIN - box.height : LEGEND_MARGIN);
  return { svg: box.at(x, y), box: { xmin: x, ymin: y, xmax: x + box.width, ymax: y + box.height } };
}

/**
 * The legend alone, as an SVG document of the box's own size (the legend route), at most
 * `maxSide` CSS pixels wide and high: longer legends end with "… N more", longer labels with
 * "…"; undefined when not even its title and one row fit.
 */
export function legendAlone(legend: Legend, maxSide: number): { svg: string; width: number; height: number } | undefined {
  const box = legendBox(legend, maxSide, maxSide);
  if (!box) return undefined;
  const { width, height, at } = box;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">${at(0, 0)}</svg>`;
  return { svg, width, height };
}

/** The box of the title and as many rows as fit in maxWidth × maxHeight; undefined when not even one row does. */
function legendBox(legend: Legend, maxWidth: number, maxHeight: number): LegendBox | undefined {
  const fittingRows = Math.floor((maxHeight - 2 * PADDING) / ROW_HEIGHT) - 1;
  if (fittingRows < 1 && legend.classes.length > 0) return undefined;
  const rows: Row[] = legend.classes.map((entry) => ({ color: entry.color, text: labelText(entry.label) }));
  if (rows.length > fittingRows) {
    const shown = fittingRows - 1;
    rows.splice(shown, rows.length - shown, { color: '', text: `… ${legend.classes.length - shown} more` });
  }
  const title = labelText(legend.field ?? 'Rules');
  const textRoom = maxWidth - 2 * PADDING - SWATCH_WIDTH - SWATCH_GAP;
  if (textRoom < measureText('…', TEXT_SIZE).width) return undefined;
  const titleText = fitted(title, textRoom + SWATCH_WIDTH + SWATCH_GAP);
  for (const row of rows) row.text = fitted(row.text, textRoom);
  const contentWidth = Math.max(
    measureText(titleText, TEXT_SIZE).width,
    ...rows.map((row) => SWATCH_WIDTH + SWATCH_GAP + measureText(row.text, TEXT_SIZE).width),
  );
  const width = Math.ceil(2 * PADDING + contentWidth);
  const height = 2 * PADDING + ROW_HEIGHT * (rows.length + 1);
  return {
    width,
    height,
    at(x, y) {
      const left = Math.round(x);
      const top = Math.round(y);
      let svg =
        `<g><rect x="${left + 0.5}" y="${top + 0.5}" width="${width - 1}" height="${height - 1}" rx="3"` +
        ` fill="#ffffff" fill-opacity="0.85" stroke="#888888" stroke-width="1"/>`;
      let ink = textPath(titleText, left + PADDING, top + PADDING + BASELINE, TEXT_SIZE, 2);
      rows.forEach((row, i) => {
        const rowTop = top + PADDING + ROW_HEIGHT * (i + 1);
        const textLeft = left + PADDING + (row.color ? SWATCH_WIDTH + SWATCH_GAP : 0);
        if (row.color) svg += swatchSvg(row.color, left + PADDING, rowTop + (ROW_HEIGHT - SWATCH_HEIGHT) / 2);
        ink += textPath(row.text, textLeft, rowTop + BASELINE, TEXT_SIZE, 2);
      });
      return svg + (ink ? `<path d="${ink}" fill="${TEXT_COLOUR}"/>` : '') + '</g>';
    },
  };
}

/** A class's colour, its border inside the swatch so that the colour's pixels stay exact. */
function swatchSvg(color: string, x: number, y: number): string {
  return (
    `<rect x="${x}" y="${y}" width="${SWATCH_WIDTH}" height="${SWATCH_HEIGHT}" fill="${escapeXml(color)}"/>` +
    `<rect x="${x + 0.5}" y="${y + 0.5}" width="${SWATCH_WIDTH - 1}" height="${SWATCH_HEIGHT - 1}" fill="none" stroke="#555555" stroke-opacity="0.6" stroke-width="1"/>`
  );
}

/** The text, cut with an ellipsis until it is at most `room` pixels wide. */
function fitted(text: string, room: number): string {
  if (measureText(text, TEXT_SIZE).width <= room) return text;
  const characters = Array.from(text);
  // Halving the length first keeps the measuring to a handful of texts however long the label.
  let low = 0;
  let high = characters.length;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (measureText(characters.slice(0, middle).join('').trimEnd() + '…', TEXT_SIZE).width <= room) low = middle;
    else high = middle - 1;
  }
  return characters.slice(0, low).join('').trimEnd() + '…';
}
