/**
 * One line of text set in the bundled font, as CSS lays it out: glyphs after the font's
 * ligatures, each advanced by its width and the pair kerning to the next. Measuring and
 * drawing both read this one layout, so a label's box is exactly what is drawn.
 */
import type opentype from 'opentype.js';
import { bundledFont } from './font.ts';
import { byteBoundedCache, OBJECT_BYTES } from '../structures/byte-bounded-cache.ts';
import { pairKerning } from './kerning.ts';

/** Some thousands of label texts per worker. */
const LAYOUT_CACHE_BYTES = 2 << 20;

/** CSS pixels, at the size asked for. */
export interface TextMetrics {
  /** The advance width, kerning included (CSS's width of the text). */
  width: number;
  /** Above the baseline: the font's ascender, or more where a glyph reaches higher. */
  ascent: number;
  /** Below the baseline, positive: the font's descender, or more where a glyph reaches lower. */
  descent: number;
}

interface Layout {
  glyphs: opentype.Glyph[];
  /** Each glyph's origin, in font units from the start of the line. */
  origins: number[];
  /** Font units. */
  advance: number;
  inkTop: number;
  inkBottom: number;
}

/** The text's extent at `size` CSS pixels. */
export function measureText(text: string, size: number): TextMetrics {
  const { font } = bundledFont();
  const { advance, inkTop, inkBottom } = layOut(text);
  const scale = size / font.unitsPerEm;
  return {
    width: advance * scale,
    ascent: Math.max(font.ascender, inkTop) * scale,
    descent: Math.max(-font.descender, -inkBottom) * scale,
  };
}

/**
 * The text's glyph outlines as SVG path data, its baseline starting at (x, y), `size` CSS
 * pixels, coordinates with `digits` decimals; empty when no glyph has an outline. Written
 * from the glyphs' own contours, each closed: opentype.js's path writer leaves contours
 * open (a halo's stroke would show a seam) and writes NaN after some of them.
 */
export function textPath(text: string, x: number, y: number, size: number, digits: number): string {
  const { font } = bundledFont();
  const { glyphs, origins } = layOut(text);
  const scale = size / font.unitsPerEm;
  const factor = 10 ** digits;
  const px = (value: number) => Math.round((x + value * scale) * factor) / factor;
  const py = (value: number) => Math.round((y - value * scale) * factor) / factor;
  let data = '';
  for (let i = 0; i < glyphs.length; i++) {
    const origin = origins[i];
    for (const command of glyphs[i].path.commands) {
      switch (command.type) {
        case 'M':
        case 'L':
          data += `${command.type}${px(origin + command.x)} ${py(command.y)}`;
          break;
        case 'Q':
          data += `Q${px(origin + command.x1)} ${py(command.y1)} ${px(origin + command.x)} ${py(command.y)}`;
          break;
        case 'C':
          data +=
            `C${px(origin + command.x1)} ${py(command.y1)} ${px(origin + command.x2)} ${py(command.y2)}` +
            ` ${px(origin + command.x)} ${py(command.y)}`;
          break;
        case 'Z':
          data += 'Z';
      }
    }
  }
  return data;
}

/**
 * Layouts kept per worker, by text: shaping a string (opentype.js's feature lookups) cost
 * more than placing it, each placed label is laid out twice (measured, then drawn), and the
 * same names come back request after request. A layout holds references to the font's own
 * glyphs: its bytes are the text's, its origins' and the arrays'.
 */
const layouts = byteBoundedCache<Layout>(LAYOUT_CACHE_BYTES, ({ glyphs }) => 3 * OBJECT_BYTES + 16 * glyphs.length);

function layOut(text: string): Layout {
  let layout = layouts.get(text);
  if (!layout) {
    layout = shape(text);
    layouts.set(text, layout);
  }
  return layout;
}

function shape(text: string): Layout {
  const { font } = bundledFont();
  const glyphs = font.stringToGlyphs(text);
  const origins: number[] = [];
  let advance = 0;
  let inkTop = 0;
  let inkBottom = 0;
  for (let i = 0; i < glyphs.length; i++) {
    const glyph = glyphs[i];
    origins.push(advance);
    advance += (glyph.advanceWidth ?? 0) + (i + 1 < glyphs.length ? pairKerning(glyph.index, glyphs[i + 1].index) : 0);
    const ink = inkOf(glyph);
    inkTop = Math.max(inkTop, ink.top);
    inkBottom = Math.min(inkBottom, ink.bottom);
  }
  return { glyphs, origins, advance, inkTop, inkBottom };
}

/** A glyph's vertical ink in font units, kept per glyph: the font has a few thousand. */
const inks = new Map<number, { top: number; bottom: number }>();

function inkOf(glyph: opentype.Glyph): { top: number; bottom: number } {
  let ink = inks.get(glyph.index);
  if (!ink) {
    const box = glyph.getBoundingBox();
    ink = Number.isFinite(box.y1) ? { top: box.y2, bottom: box.y1 } : { top: 0, bottom: 0 };
    inks.set(glyph.index, ink);
  }
  return ink;
}
