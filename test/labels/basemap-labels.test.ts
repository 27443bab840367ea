/**
 * basemapClearOf (docs/api.md, "Basemap labels"): a basemap label gives way to the features'
 * labels, when its box collides with one's or when it writes what one writes; the others,
 * and everything else of the basemap, stay as they were.
 */
import { describe, expect, it } from 'vitest';
import { basemapClearOf, type FeatureLabelRoom } from '../../src/labels/basemap-labels.ts';
import type { Basemap, BasemapLabel } from '../../src/plugin-contract/basemap-plugin.ts';

function label(text: string, xmin: number, ymin: number): BasemapLabel {
  return { text, box: { xmin, ymin, xmax: xmin + 60, ymax: ymin + 20 }, svg: `<text>${text}</text>` };
}

const RUSSIA = label('Russia', 400, 120);
const CANADA = label('Canada', 100, 100);
const BRAZIL = label('Brazil', 200, 300);

const basemap: Basemap = {
  below: { svg: '<rect/>', labels: [BRAZIL] },
  above: { svg: '<path/>', labels: [RUSSIA, CANADA] },
  attribution: 'Natural Earth',
  fonts: ['/fonts/NotoSans.ttf'],
};

const room = (text: string, xmin: number, ymin: number, width = 50, height = 16): FeatureLabelRoom => ({
  text,
  box: { xmin, ymin, xmax: xmin + width, ymax: ymin + height },
});

describe('basemap labels beside feature labels', () => {
  it('leave out one whose box a feature label meets, whatever it reads', () => {
    const clear = basemapClearOf(basemap, [room('Nunavut', 130, 110)]);
    expect(clear.above?.labels).toEqual([RUSSIA]);
    expect(clear.below.labels).toEqual([BRAZIL]);
  });

  it('leave out one that writes what a feature label writes, wherever it stands, in any case', () => {
    const clear = basemapClearOf(basemap, [room(' RUSSIA', 420, 60)]);
    expect(clear.above?.labels).toEqual([CANADA]);
  });

  it('keep those a feature label only touches, edge to edge', () => {
    const clear = basemapClearOf(basemap, [room('Edge', CANADA.box.xmax, CANADA.box.ymin)]);
    expect(clear.above?.labels).toEqual([RUSSIA, CANADA]);
  });

  it('leave the rest of the basemap as it was, and all of it without feature labels', () => {
    const clear = basemapClearOf(basemap, [room('Brazil', 0, 0)]);
    expect(clear).toEqual({ ...basemap, below: { svg: '<rect/>', labels: [] } });
    expect(basemapClearOf(basemap, [])).toBe(basemap);
  });
});
