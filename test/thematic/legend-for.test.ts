/**
 * legendFor: a classification as the legend shows it. Labels that read well (rounded bounds
 * without gaps or overlaps, each shared bound written once the same way, separators by
 * culture), exact bounds beside them, d3-scale-chromatic's colours, "other" and the null
 * class in their places.
 */
import { interpolateViridis, schemeBlues, schemeDark2, schemeSet2, schemeSet3, schemeYlOrRd } from 'd3-scale-chromatic';
import { describe, expect, it } from 'vitest';
import type { CategoryClasses, NumericClasses } from '../../src/thematic/classification.ts';
import { classifyValues } from '../../src/thematic/classify-values.ts';
import { legendFor, OTHER_COLOUR, type LegendOptions } from '../../src/thematic/legend-for.ts';

const RED = { r: 255, g: 0, b: 0, a: 0.5 };
const english: LegendOptions = { reversePalette: false, nullColor: RED, culture: 'English' };
const dutch: LegendOptions = { ...english, culture: 'Dutch' };

function numeric(breaks: number[], min: number, extra: Partial<NumericClasses> = {}): NumericClasses {
  return { kind: 'numeric', field: 'F', method: 'equal', breaks, min, counts: breaks.map(() => 1), nulls: 0, integers: false, oneValueEach: false, ...extra };
}

const labels = (classes: NumericClasses | CategoryClasses, options = english) => legendFor(classes, options).classes.map((entry) => entry.label);

describe('numeric labels', () => {
  it('round real bounds to two significant digits where that keeps the classes apart, each shared bound written once', () => {
    expect(labels(numeric([1.2345, 3.4111, 7.8], 0.5))).toEqual(['0.5 – 1.2', '1.2 – 3.4', '3.4 – 7.8']);
  });

  it('take more digits where two bounds would round alike', () => {
    expect(labels(numeric([1.0012, 1.0049, 2.5], 1))).toEqual(['1 – 1.001', '1.001 – 1.005', '1.005 – 2.5']);
  });

  it('name the integers each class of integer data holds, with thousands separators', () => {
    expect(labels(classifyValues([0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((v) => v * 1111), { field: 'F', method: 'equal', classes: 3, maxCategories: 24 }))).toEqual([
      '0 – 3,333',
      '3,334 – 6,666',
      '6,667 – 9,999',
    ]);
  });

  it('write thousands separators and the decimal mark by culture', () => {
    const classes = numeric([1234567.8, 2500000.25], 1000.5);
    expect(labels(classes)).toEqual(['1,000 – 1,200,000', '1,200,000 – 2,500,000']);
    expect(labels(classes, dutch)).toEqual(['1.000 – 1.200.000', '1.200.000 – 2.500.000']);
    expect(labels(numeric([1.25, 3.5], 0.5), dutch)).toEqual(['0,5 – 1,3', '1,3 – 3,5']);
  });

  it('write a class of one value as that value', () => {
    const classes = classifyValues([3, 1.5, 3, 7], { field: 'F', method: 'quantile', classes: 5, maxCategories: 24 });
    const legend = legendFor(classes, english);
    expect(legend.classes.map((entry) => [entry.label, entry.min, entry.max, entry.count])).toEqual([
      ['1.5', 1.5, 1.5, 1],
      ['3', 3, 3, 2],
      ['7', 7, 7, 1],
    ]);
  });

  it('keep the exact bounds beside the rounded labels: a class is (previous max, max]', () => {
    const legend = legendFor(numeric([1.2345, 3.4111, 7.8], 0.5), english);
    expect(legend.classes.map((entry) => [entry.min, entry.max, entry.value])).toEqual([
      [0.5, 1.2345, null],
      [1.2345, 3.4111, null],
      [3.4111, 7.8, null],
    ]);
    expect(legend).toMatchObject({ field: 'F', method: 'equal' });
  });
});

describe('numeric colours', () => {
  it("are YlOrRd's scheme for the class count by default, reversed on request", () => {
    const classes = numeric([1, 2, 3, 4, 5, 6], 0);
    expect(legendFor(classes, english).classes.map((entry) => entry.color)).toEqual(schemeYlOrRd[6]);
    expect(legendFor(classes, { ...english, reversePalette: true }).classes.map((entry) => entry.color)).toEqual([...schemeYlOrRd[6]].reverse());
  });

  it("are a named palette's, in any letter case", () => {
    const colours = (palette: string) => legendFor(numeric([1, 2, 3, 4], 0), { ...english, palette }).classes.map((entry) => entry.color);
    expect(colours('blues')).toEqual(schemeBlues[4]);
    // d3 has viridis as a ramp only: evenly spaced along it.
    expect(colours('VIRIDIS')).toEqual([0, 1 / 3, 2 / 3, 1].map(interpolateViridis));
  });
});

describe('categories', () => {
  const classes: CategoryClasses = { kind: 'categories', field: 'LANDUSE', method: 'categories', values: ['forest', 'water'], counts: [5, 3], other: 2, nulls: 1 };

  it('are their values, then "other", then the null class in nullColor, last', () => {
    expect(legendFor(classes, english)).toEqual({
      field: 'LANDUSE',
      method: 'categories',
      classes: [
        { label: 'forest', color: schemeSet2[0], min: null, max: null, value: 'forest', count: 5 },
        { label: 'water', color: schemeSet2[1], min: null, max: null, value: 'water', count: 3 },
        { label: 'other', color: OTHER_COLOUR, min: null, max: null, value: null, count: 2 },
        { label: 'no value', color: '#ff0000', min: null, max: null, value: null, count: 1 },
      ],
    });
  });

  it('have no "other" or null class when every feature has a listed value', () => {
    expect(labels({ ...classes, other: 0, nulls: 0 })).toEqual(['forest', 'water']);
  });

  it('read logicals as yes and no, dates as ISO dates, numbers in full with the culture’s decimal mark', () => {
    const values = [true, false, '2024-01-31', 2024, 1234.5];
    const many: CategoryClasses = { kind: 'categories', field: 'F', method: 'categories', values, counts: values.map(() => 1), other: 0, nulls: 0 };
    expect(labels(many)).toEqual(['yes', 'no', '2024-01-31', '2024', '1234.5']);
    expect(labels(many, dutch)).toEqual(['yes', 'no', '2024-01-31', '2024', '1234,5']);
  });

  it('are coloured Set2, then Set3, then Dark2 by default: 24 categories and "other", 25 distinct colours', () => {
    const values = Array.from({ length: 24 }, (_, i) => `v${i}`);
    const many: CategoryClasses = { kind: 'categories', field: 'F', method: 'categories', values, counts: values.map(() => 1), other: 7, nulls: 0 };
    const colours = legendFor(many, english).classes.map((entry) => entry.color);
    expect(colours).toEqual([...schemeSet2, ...schemeSet3, ...schemeDark2.slice(0, 4), OTHER_COLOUR]);
    expect(new Set(colours).size).toBe(25);
  });
});
