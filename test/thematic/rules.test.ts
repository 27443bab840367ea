/**
 * A theme's rules: compiled against a file's fields, the first matching rule wins, a rule
 * without filter matches everything, a filter that does not fit the file is a 400 naming the
 * rule; and their legend.
 */
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../src/errors.ts';
import type { AttributeField } from '../../src/shapefile/dbf.ts';
import { compileRules, rulesLegend, type StyleRule } from '../../src/thematic/rules.ts';

const fields: AttributeField[] = [
  { name: 'LANDUSE', type: 'string' },
  { name: 'AREA', type: 'number' },
];
const GREEN = { r: 0, g: 128, b: 0, a: 1 };
const BLUE = { r: 0, g: 0, b: 255, a: 0.5 };
const PLAIN = { r: 0xcc, g: 0xdd, b: 0xee, a: 1 };

describe('compiled rules', () => {
  const rules: StyleRule[] = [{ filter: "landuse = 'forest'", fillColor: GREEN }, { filter: 'AREA > 100', fillColor: BLUE, label: 'large' }];

  it('give the first rule that matches, undefined when none does', () => {
    const { ruleOf, fields: read } = compileRules(rules, fields);
    expect(read).toEqual(['LANDUSE', 'AREA']);
    expect(ruleOf({ LANDUSE: 'forest', AREA: 500 })).toBe(0);
    expect(ruleOf({ LANDUSE: 'water', AREA: 500 })).toBe(1);
    expect(ruleOf({ LANDUSE: 'water', AREA: 5 })).toBeUndefined();
    expect(ruleOf({ LANDUSE: null, AREA: null })).toBeUndefined();
  });

  it('take a rule without filter as the default, matching every feature', () => {
    const { ruleOf } = compileRules([...rules, { fillColor: PLAIN }], fields);
    expect(ruleOf({ LANDUSE: 'water', AREA: 5 })).toBe(2);
    expect(ruleOf({})).toBe(2);
  });

  it('refuse a filter that does not fit the file with a 400 naming the theme and the rule', () => {
    const run = () => compileRules([rules[0], { filter: "AREA = 'big'" }], fields, 'LandUse');
    expect(run).toThrow(BadRequestError);
    expect(run).toThrow(/^Theme 'LandUse', rule 2 \(filter 'AREA = 'big''\): Invalid filter: /);
    expect(() => compileRules([{ filter: 'HEIGHT > 3' }], fields)).toThrow(/^The theme, rule 1 \(filter 'HEIGHT > 3'\): Invalid filter: .*HEIGHT/);
  });
});

describe('the legend of rules', () => {
  it('has one class per rule: its label, else its filter, else "other", in its fill colour or the plain one', () => {
    const rules: StyleRule[] = [{ filter: "LANDUSE = 'forest'", fillColor: GREEN }, { filter: 'AREA > 100', fillColor: BLUE, label: 'large' }, {}];
    expect(rulesLegend(rules, [4, 2, 9], PLAIN)).toEqual({
      field: null,
      method: 'rules',
      classes: [
        { label: "LANDUSE = 'forest'", color: '#008000', min: null, max: null, value: null, count: 4 },
        { label: 'large', color: '#0000ff', min: null, max: null, value: null, count: 2 },
        { label: 'other', color: '#ccddee', min: null, max: null, value: null, count: 9 },
      ],
    });
  });
});
