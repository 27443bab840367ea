/**
 * The outline of a coloured polygon or point (docs/api.md, "Outlines"): what the
 * request or its theme names of it is kept, part by part; what it leaves out recedes, a
 * half-pixel edge in a darker shade of the feature's own fill.
 */
import { describe, expect, it } from 'vitest';
import { colouredPaint, RECEDING_OUTLINE_WIDTH, recedingColour } from '../../src/thematic/class-outline.ts';

const YELLOW = { r: 255, g: 255, b: 178, a: 1 };
const WHITE = { r: 255, g: 255, b: 255, a: 1 };

describe('a coloured feature’s outline', () => {
  it('recedes when nothing names it: half a pixel, darker than the fill in every channel, the fill’s hue kept', () => {
    const paint = colouredPaint(YELLOW, {});
    expect(paint.fillColor).toEqual(YELLOW);
    expect(paint.lineWidth).toBe(RECEDING_OUTLINE_WIDTH);
    expect(RECEDING_OUTLINE_WIDTH).toBeLessThan(1);
    const { r, g, b } = paint.lineColor;
    expect([r, g, b].every((channel, i) => channel < [YELLOW.r, YELLOW.g, YELLOW.b][i])).toBe(true);
    expect(r / b).toBeCloseTo(YELLOW.r / YELLOW.b);
  });

  it('keeps each part the request or its theme names, the other receding', () => {
    expect(colouredPaint(YELLOW, { lineColor: WHITE, lineWidth: 1 })).toEqual({ fillColor: YELLOW, lineColor: WHITE, lineWidth: 1 });
    expect(colouredPaint(YELLOW, { lineWidth: 0 })).toEqual({ fillColor: YELLOW, lineColor: recedingColour(YELLOW), lineWidth: 0 });
    expect(colouredPaint(YELLOW, { lineColor: WHITE })).toEqual({ fillColor: YELLOW, lineColor: WHITE, lineWidth: RECEDING_OUTLINE_WIDTH });
  });

  it('keeps a translucent fill’s alpha: a translucent no-value class keeps a translucent edge', () => {
    expect(recedingColour({ r: 200, g: 200, b: 200, a: 0.4 }).a).toBe(0.4);
  });
});
