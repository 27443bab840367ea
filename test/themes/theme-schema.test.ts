import { copyFileSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.ts';
import { BUNDLED_THEMES_DIR } from '../../src/config/package-folders.ts';
import { loadThemes } from '../../src/themes/load-themes.ts';
import { parseThemeFile } from '../../src/themes/theme-file.ts';
import { THEME_SCHEMA_FILE_NAME, themeJsonSchema, themeJsonSchemaText } from '../../src/themes/theme-json-schema.ts';
import { writeFixtures } from '../support/fixtures.ts';
import { decodePng } from '../support/png.ts';
import { imagesUrl, startServer } from '../support/server.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

afterAll(removeTempDirs);

const SCHEMA_PATH = join(BUNDLED_THEMES_DIR, THEME_SCHEMA_FILE_NAME);
const committedText = readFileSync(SCHEMA_PATH, 'utf8');
const committedSchema = JSON.parse(committedText) as Record<string, unknown>;
const validate = new Ajv2020({ strict: true, allErrors: true }).compile(committedSchema);

const themeFileNames = readdirSync(BUNDLED_THEMES_DIR).filter(
  (fileName) => fileName.endsWith('.json') && fileName !== THEME_SCHEMA_FILE_NAME,
);
const readJson = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'));

describe('themes/theme.schema.json', () => {
  it('is what `npm run theme-schema` writes now (run it after changing the theme format)', () => {
    expect(committedText).toBe(themeJsonSchemaText());
    expect(committedText.endsWith('}\n')).toBe(true);
  });

  it('is a draft 2020-12 schema with an id and a title, documenting every field', () => {
    const schema = themeJsonSchema();
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe('urn:shapeshot:theme');
    expect(schema.title).toBeTruthy();
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['name']);
    const properties = schema.properties as Record<string, { description?: string }>;
    expect(Object.keys(properties)).toEqual(
      expect.arrayContaining(['$schema', 'name', 'extends', 'lineColor', 'fillOpacity', 'pointSize', 'grid', 'gridSpace']),
    );
    for (const [field, property] of Object.entries(properties)) {
      expect(property.description, field).toMatch(/\w{3,}.*\w{3,}/);
    }
  });

  it('describes the input side: colours as text, grid as 0 or 1, integers as integers', () => {
    const properties = themeJsonSchema().properties as Record<string, Record<string, unknown>>;
    expect(properties.lineColor).toMatchObject({ type: 'string' });
    expect(properties.grid).toMatchObject({ enum: [0, 1] });
    expect(properties.lineWidth).toMatchObject({ type: 'integer', minimum: 0, maximum: 100 });
    expect(properties.pointSize).toMatchObject({ type: 'number', minimum: 0.5, maximum: 100 });
  });

  it('describes classify, rules and labels, and says that extends replaces them wholesale', () => {
    const schema = themeJsonSchema();
    type Node = { description?: string; properties: Record<string, Node>; items: Node };
    const properties = schema.properties as Record<string, Node>;
    expect(properties.classify).toMatchObject({ type: 'object', required: ['field'], additionalProperties: false });
    expect(properties.classify.properties.method).toMatchObject({ enum: ['categories', 'quantile', 'equal', 'jenks'] });
    expect(properties.classify.properties.classes).toMatchObject({ type: 'integer', minimum: 2, maximum: 12 });
    expect(properties.classify.properties.palette.description).toContain('YlOrRd');
    expect(properties.rules).toMatchObject({ type: 'array', minItems: 1, maxItems: 64 });
    expect(properties.rules.items).toMatchObject({ type: 'object', additionalProperties: false });
    expect(properties.rules.items.properties.filter).toMatchObject({ type: 'string', maxLength: 4096 });
    expect(properties.labels).toMatchObject({ type: 'object', required: ['field'], additionalProperties: false });
    expect(properties.labels.properties.size).toMatchObject({ type: 'integer', minimum: 6, maximum: 48 });
    for (const group of ['classify', 'rules', 'labels']) {
      expect(properties[group].description, group).toMatch(/\w{3,}.*\w{3,}/);
      const fields = group === 'rules' ? properties.rules.items.properties : properties[group].properties;
      for (const [field, property] of Object.entries(fields)) expect(property.description, `${group}.${field}`).toMatch(/\w{3,}.*\w{3,}/);
    }
    expect(properties.extends.description).toContain('wholesale');
    expect(schema.description).toContain('wholesale');
  });
});

describe('the shipped themes and the JSON Schema', () => {
  it('every shipped theme names the schema first', () => {
    // The eleven the interface names and the two thematic examples (Regions, CountryArea).
    expect(themeFileNames.length).toBe(13);
    for (const fileName of themeFileNames) {
      const text = readFileSync(join(BUNDLED_THEMES_DIR, fileName), 'utf8');
      expect(text.startsWith(`{\n  "$schema": "./${THEME_SCHEMA_FILE_NAME}",\n`), fileName).toBe(true);
    }
  });

  it.each(themeFileNames)('%s validates against the committed JSON Schema', (fileName) => {
    const valid = validate(readJson(join(BUNDLED_THEMES_DIR, fileName)));
    expect(validate.errors ?? [], fileName).toEqual([]);
    expect(valid).toBe(true);
  });

  it('the loader reads the themes, not the schema, and drops "$schema"', () => {
    const themes = loadThemes(BUNDLED_THEMES_DIR);
    expect(themes.size).toBe(themeFileNames.length);
    for (const theme of themes.values()) expect(Object.keys(theme.style)).not.toContain('$schema');
    expect(parseThemeFile({ $schema: 'anything', name: 'A' }, 'a.json')).toEqual({ name: 'A' });
  });

  it.each([
    ['an unknown colour', { lineColor: '#GGG' }, /field 'lineColor': not a colour: '#GGG'/],
    ['a colour of the wrong type', { fillColor: 12 }, /field 'fillColor': must be a colour code or name/],
    ['a fractional width', { lineWidth: 2.5 }, /field 'lineWidth': must be an integer from 0 to 100/],
    ['a number out of range', { fillOpacity: 1.5 }, /field 'fillOpacity': must be a number from 0 to 1/],
    ['grid as a boolean', { grid: true }, /field 'grid': must be 0 or 1/],
    ['a misspelt field', { linecolour: 'red' }, /field 'linecolour': unknown field/],
    ['a $schema that is not a string', { $schema: 1 }, /field '\$schema': must be a string/],
    ['13 classes', { classify: { field: 'POP', classes: 13 } }, /field 'classify.classes': must be an integer from 2 to 12/],
    ['an unknown method', { classify: { field: 'POP', method: 'natural' } }, /field 'classify.method': must be one of/],
    ['reversePalette as a boolean', { classify: { field: 'POP', reversePalette: true } }, /field 'classify.reversePalette': must be 0 or 1/],
    ['a misspelt rule field', { rules: [{ filter: 'a = 1', fillcolour: 'red' }] }, /rule 1, field 'rules.0.fillcolour': unknown field/],
    ['no rules', { rules: [] }, /field 'rules': must be a list of 1 to 64 rules/],
    ['a label size of 49', { labels: { field: 'NAME', size: 49 } }, /field 'labels.size': must be an integer from 6 to 48/],
    ['labels without a field', { labels: { size: 12 } }, /field 'labels.field'/],
  ])('a theme with %s fails both zod and the JSON Schema', (_what, settings, message) => {
    const dir = makeTempDir();
    const broken = { $schema: `./${THEME_SCHEMA_FILE_NAME}`, name: 'Broken', ...settings };
    writeFileSync(join(dir, 'broken.json'), JSON.stringify(broken, null, 2));
    copyFileSync(SCHEMA_PATH, join(dir, THEME_SCHEMA_FILE_NAME));
    expect(() => loadThemes(dir)).toThrow(message);
    expect(validate(readJson(join(dir, 'broken.json')))).toBe(false);
  });

  it('the JSON Schema checks a colour name only for its shape; the loader knows the names', () => {
    expect(validate({ name: 'A', lineColor: 'Bluish' })).toBe(true);
    expect(validate({ name: 'A', lineColor: 'Light Blue' })).toBe(false);
    expect(() => parseThemeFile({ name: 'A', lineColor: 'Bluish' }, 'a.json')).toThrow("field 'lineColor': not a colour: 'Bluish'");
  });

  it("the JSON Schema checks a rule's filter and a palette only for their shape; the loader parses them", () => {
    const badFilter = { name: 'A', rules: [{ filter: "REGION = 'Europe' AND" }] };
    expect(validate(badFilter)).toBe(true);
    expect(() => parseThemeFile(badFilter, 'a.json')).toThrow("rule 1, field 'rules.0.filter': not a valid CQL2 text filter");
    const badPalette = { name: 'A', classify: { field: 'POP', palette: 'Rainbows' } };
    expect(validate(badPalette)).toBe(true);
    expect(() => parseThemeFile(badPalette, 'a.json')).toThrow("field 'classify.palette': not a palette");
    expect(validate({ name: 'A', rules: [{ filter: 'x'.repeat(4097) }] })).toBe(false);
  });

  it('a theme without a name fails both', () => {
    expect(() => parseThemeFile({ lineColor: 'red' }, 'x.json')).toThrow(/field 'name'/);
    expect(validate({ lineColor: 'red' })).toBe(false);
  });
});

describe('a theme folder given by configuration', () => {
  const GREEN = { r: 0, g: 255, b: 0, a: 1 };

  function writeThemeFolder(): string {
    const dir = makeTempDir('shapeshot-themes-');
    // Its own copy of the schema, which the loader must pass over, and a theme pointing elsewhere.
    copyFileSync(SCHEMA_PATH, join(dir, THEME_SCHEMA_FILE_NAME));
    writeFileSync(
      join(dir, 'Meadow.json'),
      JSON.stringify({ $schema: '../../shapeshot/themes/theme.schema.json', name: 'Meadow', fillColor: '#00FF00', lineWidth: 0 }, null, 2),
    );
    writeFileSync(
      join(dir, 'MeadowGrid.json'),
      JSON.stringify({ $schema: 'https://example.org/schemas/theme.schema.json', name: 'MeadowGrid', extends: 'Meadow', grid: 1 }),
    );
    return dir;
  }

  it('loads through the configuration and the real loader, $schema whatever it points at', () => {
    const dir = writeThemeFolder();
    const configFile = join(makeTempDir(), 'shapeshot.json');
    writeFileSync(configFile, JSON.stringify({ themesDir: dir }));
    const config = loadConfig({ SHAPESHOT_CONFIG: configFile });
    expect(config.themesDir).toBe(dir);
    const themes = loadThemes(config.themesDir);
    expect([...themes.keys()].sort()).toEqual(['meadow', 'meadowgrid']);
    expect(themes.get('meadow')).toEqual({ name: 'Meadow', style: { fillColor: GREEN, lineWidth: 0 } });
    expect(themes.get('meadowgrid')).toEqual({ name: 'MeadowGrid', style: { fillColor: GREEN, lineWidth: 0, grid: true } });
    for (const fileName of ['Meadow.json', 'MeadowGrid.json']) expect(validate(readJson(join(dir, fileName))), fileName).toBe(true);
  });

  it('draws with those themes in the running service', async () => {
    const server = await startServer({ dataDir: writeFixtures(), themesDir: writeThemeFolder() });
    try {
      const response = await fetch(imagesUrl(server, { file: 'squares', fid: 0, format: 'png', theme: 'meadow' }));
      expect(response.status, await response.clone().text()).toBe(200);
      const image = decodePng(new Uint8Array(await response.arrayBuffer()));
      expect(image.pixel(320, 240)).toEqual([0, 255, 0, 255]);
    } finally {
      await server.close();
    }
  });
});
