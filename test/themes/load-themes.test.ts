import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BUNDLED_THEMES_DIR } from '../../src/config/package-folders.ts';
import { loadThemes } from '../../src/themes/load-themes.ts';

const SHIPPED = ['Movie', 'MovieGrid', 'Ocean', 'OceanGrid', 'ShapeServerBlue', 'Sky', 'SkyGrid', 'Steel', 'SteelGrid', 'Tech', 'TechGrid'];

describe('the shipped themes', () => {
  const themes = loadThemes(BUNDLED_THEMES_DIR);

  it('are the eleven the interface names, spelled as it spells them', () => {
    expect([...themes.values()].map((theme) => theme.name).sort()).toEqual([...SHIPPED].sort());
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

  it('each set the full look: outline, fill and a two-colour background', () => {
    for (const theme of themes.values()) {
      expect(theme.style.lineColor, theme.name).toBeDefined();
      expect(theme.style.fillColor, theme.name).toBeDefined();
      expect(theme.style.bgColor1, theme.name).toBeDefined();
      expect(theme.style.bgColor2, theme.name).toBeDefined();
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
});
