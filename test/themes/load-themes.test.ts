import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUNDLED_THEMES_DIR, SAMPLE_DATA_DIR } from '../../src/config/package-folders.ts';
import { compileFilter, MAX_FILTER_LENGTH } from '../../src/filter/index.ts';
import { attributeType, decodeRow, parseDbfHeader, type AttributeValue } from '../../src/shapefile/dbf.ts';
import { parseColour } from '../../src/params/colour.ts';
import { decoderFor } from '../../src/shapefile/encoding.ts';
import { loadThemes } from '../../src/themes/load-themes.ts';

const SHIPPED = ['Movie', 'MovieGrid', 'Ocean', 'OceanGrid', 'ShapeServerBlue', 'Sky', 'SkyGrid', 'Steel', 'SteelGrid', 'Tech', 'TechGrid'];
/** The thematic examples (issue 21), designed for the sample countries. */
const EXAMPLES = ['Regions', 'CountryArea'];

/** The sample countries' fields and rows, as the service reads them. */
function sampleCountries() {
  const bytes = new Uint8Array(readFileSync(join(SAMPLE_DATA_DIR, 'countries.dbf')));
  const decode = decoderFor('utf-8');
  const header = parseDbfHeader(bytes, 'countries.dbf', decode);
  const fields = header.columns.map((column) => ({ name: column.name, type: attributeType(column) }));
  const rows = Array.from({ length: header.recordCount }, (_, i) => {
    const start = header.headerBytes + i * header.rowBytes;
    return decodeRow(bytes.subarray(start, start + header.rowBytes), header.columns, decode);
  });
  return { fields, rows };
}

describe('the shipped themes', () => {
  const themes = loadThemes(BUNDLED_THEMES_DIR);

  it('are the eleven the interface names, spelled as it spells them, and the two thematic examples', () => {
    expect([...themes.values()].map((theme) => theme.name).sort()).toEqual([...SHIPPED, ...EXAMPLES].sort());
  });

  it('the eleven the interface names set no thematic settings', () => {
    for (const name of SHIPPED) {
      const { classify, rules, labels } = themes.get(name.toLowerCase())!;
      expect({ classify, rules, labels }, name).toEqual({ classify: undefined, rules: undefined, labels: undefined });
    }
  });

  describe('the thematic examples on the sample countries', () => {
    const { fields, rows } = sampleCountries();
    const fieldTypes = new Map(fields.map((field) => [field.name.toLowerCase(), field.type]));

    it('Regions colours each region by its own rule, the default rule last, and labels names', () => {
      const regions = themes.get('regions')!;
      const rules = regions.rules!;
      expect(rules.at(-1)!.filter).toBeUndefined();
      const filtered = rules.slice(0, -1);
      expect(new Set(filtered.map((rule) => JSON.stringify(rule.fillColor))).size).toBe(filtered.length);
      // Every rule is typed against the real file, and each region's rule styles some country; together they leave none to the default.
      const matching = filtered.map((rule) => compileFilter(rule.filter!, fields));
      const firstMatch = (row: Record<string, AttributeValue>) => matching.findIndex((filter) => filter.matches(row));
      const counts = filtered.map((_, i) => rows.filter((row) => firstMatch(row) === i).length);
      for (const [i, count] of counts.entries()) expect(count, rules[i].label).toBeGreaterThan(0);
      expect(rows.filter((row) => firstMatch(row) === -1)).toEqual([]);
      expect(regions.labels).toMatchObject({ field: 'NAME', size: 10 });
      expect(fieldTypes.get('name')).toBe('string');
    });

    it('CountryArea classifies the area, a number, in quantiles of a sequential palette, and labels names', () => {
      const countryArea = themes.get('countryarea')!;
      expect(countryArea.classify).toMatchObject({ field: 'AREA_KM2', method: 'quantile', palette: 'YlGnBu' });
      expect(countryArea.classify!.classes).toBeGreaterThanOrEqual(5);
      expect(fieldTypes.get('area_km2')).toBe('number');
      expect(countryArea.labels?.field).toBe('NAME');
      expect(countryArea.rules).toBeUndefined();
    });
  });

  it('are found by lower-case name', () => {
    expect(themes.get('shapeserverblue')?.name).toBe('ShapeServerBlue');
    expect(themes.get('steel')?.name).toBe('Steel');
  });

  it.each(SHIPPED.filter((name) => name.endsWith('Grid')))('%s is its base theme with the grid on', (name) => {
    const grid = themes.get(name.toLowerCase())!;
    const base = themes.get(name.slice(0, -'Grid'.length).toLowerCase())!;
    const { grid: on, gridColor, gridSpace, ...rest } = grid.style;
    expect(on).toBe(true);
    expect(gridColor).toBeDefined();
    expect(gridSpace).toBeGreaterThanOrEqual(2);
    expect(rest).toEqual(base.style);
    expect(base.style.grid).toBeUndefined();
  });

  it('each set the full look its file names (a grid theme its base theme\'s): outline, fill and a two-colour background', () => {
    const file = (name: string): Record<string, string> => JSON.parse(readFileSync(join(BUNDLED_THEMES_DIR, `${name.toLowerCase()}.json`), 'utf8'));
    for (const theme of themes.values()) {
      const own = file(theme.name);
      const written = own.extends === undefined ? own : file(own.extends);
      for (const colour of ['lineColor', 'fillColor', 'bgColor1', 'bgColor2'] as const) {
        expect(written[colour], `${theme.name} ${colour}`).toBeTypeOf('string');
        expect(theme.style[colour], `${theme.name} ${colour}`).toEqual(parseColour(written[colour]));
      }
      expect(theme.style.bgColor1, `${theme.name}: two background colours`).not.toEqual(theme.style.bgColor2);
    }
  });

  it('look different from each other', () => {
    const looks = SHIPPED.filter((name) => !name.endsWith('Grid')).map((name) => {
      const { lineColor, fillColor, bgColor1, bgColor2 } = themes.get(name.toLowerCase())!.style;
      return JSON.stringify([lineColor, fillColor, bgColor1, bgColor2]);
    });
    expect(new Set(looks).size).toBe(looks.length);
  });
});

describe('loadThemes', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'themes-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const write = (fileName: string, content: unknown) =>
    writeFileSync(join(dir, fileName), typeof content === 'string' ? content : JSON.stringify(content));

  it('adds a theme for each file, parsing colours in every accepted form', () => {
    write('Dusk.json', { name: 'Dusk', lineColor: 'Orchid', fillColor: '#80102030', bgColor1: 'abc', lineWidth: 3, grid: 0 });
    write('readme.txt', 'not a theme');
    const themes = loadThemes(dir);
    expect([...themes.keys()]).toEqual(['dusk']);
    expect(themes.get('dusk')).toEqual({
      name: 'Dusk',
      style: {
        lineColor: { r: 0xda, g: 0x70, b: 0xd6, a: 1 },
        fillColor: { r: 0x10, g: 0x20, b: 0x30, a: 128 / 255 },
        bgColor1: { r: 0xaa, g: 0xbb, b: 0xcc, a: 1 },
        lineWidth: 3,
        grid: false,
      },
    });
  });

  it('lets a theme extend another, its own settings winning, through several levels', () => {
    write('a.json', { name: 'A', lineColor: 'red', lineWidth: 4, fillColor: 'white' });
    write('b.json', { name: 'B', extends: 'a', lineColor: 'blue' });
    write('c.json', { name: 'C', extends: 'B', grid: 1 });
    const c = loadThemes(dir).get('c')!;
    expect(c.name).toBe('C');
    expect(c.style).toEqual({
      lineColor: { r: 0, g: 0, b: 255, a: 1 },
      lineWidth: 4,
      fillColor: { r: 255, g: 255, b: 255, a: 1 },
      grid: true,
    });
  });

  it.each([
    [{ name: 'Bad', lineColor: '#GGG' }, "bad.json: field 'lineColor': not a colour: '#GGG'"],
    [{ name: 'Bad', fillColor: 12 }, "bad.json: field 'fillColor': must be a colour code or name, as a string; got 12"],
    [{ name: 'Bad', lineWidth: 2.5 }, "bad.json: field 'lineWidth': must be an integer from 0 to 100; got 2.5"],
    [{ name: 'Bad', lineWidth: '2' }, "bad.json: field 'lineWidth': must be an integer from 0 to 100; got \"2\""],
    [{ name: 'Bad', bgAngle: 361 }, "bad.json: field 'bgAngle': must be an integer from 0 to 360; got 361"],
    [{ name: 'Bad', grid: true }, "bad.json: field 'grid': must be 0 or 1; got true"],
    [{ name: 'Bad', gridSpace: 1 }, "bad.json: field 'gridSpace': must be an integer from 2 to 10000; got 1"],
    [{ name: 'Bad', fillOpacity: 1.5 }, "bad.json: field 'fillOpacity': must be a number from 0 to 1; got 1.5"],
    [{ name: 'Bad', pointSize: 0 }, "bad.json: field 'pointSize': must be a number from 0.5 to 100"],
    [{ name: 'Bad', linecolour: 'red' }, "bad.json: field 'linecolour': unknown field"],
    [{ lineColor: 'red' }, "bad.json: field 'name': must be a string; got nothing"],
    [{ name: 'Bad Theme' }, "bad.json: field 'name': must be a name of up to 64 letters"],
    [{ name: 'Other' }, "bad.json: field 'name': 'Other' must match the file name 'bad.json'"],
    [{ name: 'Bad', extends: 'Nowhere' }, "bad.json: field 'extends': unknown theme 'Nowhere'"],
    [['red'], 'bad.json: must be a JSON object of theme settings'],
    ['{"name": "Bad",', 'bad.json: not valid JSON'],
  ])('rejects %j, naming the file and the field', (content, message) => {
    write('good.json', { name: 'Good' });
    write('bad.json', content);
    expect(() => loadThemes(dir)).toThrow(message);
    expect(() => loadThemes(dir)).toThrow(join(dir, 'bad.json'));
  });

  it('rejects themes that extend each other in a cycle', () => {
    write('a.json', { name: 'A', extends: 'B' });
    write('b.json', { name: 'B', extends: 'A' });
    expect(() => loadThemes(dir)).toThrow("b.json: field 'extends': themes extend each other in a cycle: A -> B -> A");
  });

  it('rejects a theme that extends itself', () => {
    write('a.json', { name: 'A', extends: 'a' });
    expect(() => loadThemes(dir)).toThrow("a.json: field 'extends': themes extend each other in a cycle: A -> A");
  });

  it('rejects two files defining the same name in different case', () => {
    write('a.json', { name: 'A' });
    write('A.JSON', { name: 'a' });
    expect(() => loadThemes(dir)).toThrow(/field 'name': theme '.' is also defined in/);
  });

  describe('thematic settings', () => {
    const RED = { r: 255, g: 0, b: 0, a: 1 };
    const GREY = { r: 0xcc, g: 0xcc, b: 0xcc, a: 1 };

    it('reads classify, rules and labels into the Theme, colours parsed and the palette spelled as d3 spells it', () => {
      write('graded.json', {
        name: 'Graded',
        classify: { field: 'pop', method: 'jenks', classes: 7, palette: 'ylorrd', reversePalette: 1, nullColor: '#ccc' },
        labels: { field: 'NAME', size: 14, color: 'red', halo: 'Transparent' },
      });
      write('ruled.json', {
        name: 'Ruled',
        lineColor: 'black',
        rules: [
          { filter: "landuse = 'forest'", fillColor: 'ForestGreen', label: 'Forest' },
          { filter: 'area > 1000 AND NOT (kind IN (1, 2))', lineColor: 'red', lineWidth: 3 },
          { fillColor: '#CCCCCC', label: 'Other' },
        ],
      });
      const themes = loadThemes(dir);
      expect(themes.get('graded')).toEqual({
        name: 'Graded',
        style: {},
        classify: { field: 'pop', method: 'jenks', classes: 7, palette: 'YlOrRd', reversePalette: true, nullColor: GREY },
        labels: { field: 'NAME', size: 14, color: RED, halo: { r: 0, g: 0, b: 0, a: 0 } },
      });
      expect(themes.get('ruled')).toEqual({
        name: 'Ruled',
        style: { lineColor: { r: 0, g: 0, b: 0, a: 1 } },
        rules: [
          { filter: "landuse = 'forest'", fillColor: { r: 0x22, g: 0x8b, b: 0x22, a: 1 }, label: 'Forest' },
          { filter: 'area > 1000 AND NOT (kind IN (1, 2))', lineColor: RED, lineWidth: 3 },
          { fillColor: GREY, label: 'Other' },
        ],
      });
    });

    it("lets a theme's classify, rules and labels replace its base's wholesale, style settings still merging", () => {
      write('base.json', {
        name: 'Base',
        fillColor: 'white',
        rules: [{ filter: 'a = 1', fillColor: 'red' }],
        labels: { field: 'NAME', size: 20, halo: 'black' },
      });
      write('same.json', { name: 'Same', extends: 'Base', lineWidth: 4 });
      write('graded.json', { name: 'Graded', extends: 'Base', classify: { field: 'pop' }, labels: { field: 'CODE' } });
      write('regraded.json', { name: 'Regraded', extends: 'Graded', rules: [{ filter: 'b = 2', lineColor: 'red' }] });
      const themes = loadThemes(dir);
      const WHITE = { r: 255, g: 255, b: 255, a: 1 };
      expect(themes.get('same')).toEqual({
        name: 'Same',
        style: { fillColor: WHITE, lineWidth: 4 },
        rules: [{ filter: 'a = 1', fillColor: RED }],
        labels: { field: 'NAME', size: 20, halo: { r: 0, g: 0, b: 0, a: 1 } },
      });
      // classify takes the place of the base's rules, and labels are not merged field by field (no size, no halo).
      expect(themes.get('graded')).toEqual({ name: 'Graded', style: { fillColor: WHITE }, classify: { field: 'pop' }, labels: { field: 'CODE' } });
      expect(themes.get('regraded')).toEqual({
        name: 'Regraded',
        style: { fillColor: WHITE },
        rules: [{ filter: 'b = 2', lineColor: RED }],
        labels: { field: 'CODE' },
      });
    });

    it.each([
      [
        "a rule's filter that stops short",
        { rules: [{ filter: "NAME = 'a'" }, { filter: 'NAME =' }] },
        "bad.json: rule 2, field 'rules.1.filter': not a valid CQL2 text filter: ",
      ],
      ["a rule's filter with an unclosed text", { rules: [{ filter: "NAME = 'unclosed" }] }, "bad.json: rule 1, field 'rules.0.filter': not a valid CQL2 text filter: "],
      ['an empty filter', { rules: [{ filter: '' }] }, "bad.json: rule 1, field 'rules.0.filter': not a valid CQL2 text filter: the filter is empty"],
      [
        'a filter longer than the most',
        { rules: [{ filter: `NAME = '${'x'.repeat(MAX_FILTER_LENGTH)}'` }] },
        `bad.json: rule 1, field 'rules.0.filter': must be CQL2 text of at most ${MAX_FILTER_LENGTH} characters`,
      ],
      ['a misspelt rule field', { rules: [{ filter: 'a = 1', fillcolour: 'red' }] }, "bad.json: rule 1, field 'rules.0.fillcolour': unknown field"],
      ["a rule's colour that is none", { rules: [{ filter: 'a = 1', fillColor: '#GG0000' }] }, "bad.json: rule 1, field 'rules.0.fillColor': not a colour: '#GG0000'"],
      ["a rule's line width out of range", { rules: [{ filter: 'a = 1', lineWidth: 101 }] }, "bad.json: rule 1, field 'rules.0.lineWidth': must be an integer from 0 to 100"],
      ['an empty rule label', { rules: [{ filter: 'a = 1', label: '' }] }, "bad.json: rule 1, field 'rules.0.label': must be text of 1 to 100 characters"],
      [
        'a rule after the default rule',
        { rules: [{ label: 'Other' }, { filter: 'a = 1' }] },
        "bad.json: rule 2, field 'rules.1': can never match: rule 1 has no filter and styles every feature left; put the default rule last",
      ],
      ['no rules', { rules: [] }, "bad.json: field 'rules': must be a list of 1 to 64 rules"],
      ['65 rules', { rules: Array.from({ length: 65 }, (_, i) => ({ filter: `a = ${i}` })) }, "bad.json: field 'rules': must be a list of 1 to 64 rules"],
      ['rules that are no list', { rules: { filter: 'a = 1' } }, "bad.json: field 'rules': must be a list of rules"],
      ['classify and rules together', { classify: { field: 'pop' }, rules: [{ fillColor: 'red' }] }, "bad.json: field 'rules': cannot be set together with 'classify'"],
      ['classify without a field', { classify: { method: 'quantile' } }, "bad.json: field 'classify.field': must be a field name, as a string; got nothing"],
      ['an unknown method', { classify: { field: 'pop', method: 'natural' } }, "bad.json: field 'classify.method': must be one of categories, quantile, equal, jenks"],
      ['13 classes', { classify: { field: 'pop', classes: 13 } }, "bad.json: field 'classify.classes': must be an integer from 2 to 12; got 13"],
      ['1 class', { classify: { field: 'pop', classes: 1 } }, "bad.json: field 'classify.classes': must be an integer from 2 to 12; got 1"],
      ['an unknown palette', { classify: { field: 'pop', palette: 'Rainbows' } }, "bad.json: field 'classify.palette': not a palette: \"Rainbows\"; the palettes are Accent, Blues"],
      ['reversePalette as a boolean', { classify: { field: 'pop', reversePalette: true } }, "bad.json: field 'classify.reversePalette': must be 0 or 1; got true"],
      ['a misspelt classify field', { classify: { field: 'pop', nullcolor: 'red' } }, "bad.json: field 'classify.nullcolor': unknown field"],
      ['a label size below 6', { labels: { field: 'NAME', size: 5 } }, "bad.json: field 'labels.size': must be an integer from 6 to 48; got 5"],
      ['a label size above 48', { labels: { field: 'NAME', size: 49 } }, "bad.json: field 'labels.size': must be an integer from 6 to 48; got 49"],
      ['a halo that is no colour', { labels: { field: 'NAME', halo: 'Glow' } }, "bad.json: field 'labels.halo': not a colour: 'Glow'"],
      ['labels without a field', { labels: { size: 12 } }, "bad.json: field 'labels.field': must be a field name, as a string; got nothing"],
    ])('stops start-up on %s, naming the file, the rule and what is wrong', (_what, settings, message) => {
      write('good.json', { name: 'Good', rules: [{ filter: "REGION = 'Europe'" }] });
      write('bad.json', { name: 'Bad', ...settings });
      expect(() => loadThemes(dir)).toThrow(message);
      expect(() => loadThemes(dir)).toThrow(join(dir, 'bad.json'));
    });

    it("says where in a rule's filter the syntax breaks", () => {
      write('bad.json', { name: 'Bad', rules: [{ filter: "REGION = 'Europe' AND" }, { filter: "REGION = 'Asia' OR OR x = 1" }] });
      expect(() => loadThemes(dir)).toThrow(/rule 1, field 'rules\.0\.filter': not a valid CQL2 text filter: .*end of the filter/);
      expect(() => loadThemes(dir)).toThrow(/rule 2, field 'rules\.1\.filter': not a valid CQL2 text filter: .*position 20 but found 'OR'/);
    });
  });
});
