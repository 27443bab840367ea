/**
 * Thematic styling end to end (docs/decisions.md, "Thematic styling"; issue 21): a file ogr2ogr
 * writes — 100 unit squares in a 10 × 10 grid, VALUE 0–99, KIND one of 7 categories, MAYBE
 * null on every third square — drawn styled, and the pixel inside each square compared with
 * its class's colour in the answer's Legend (whose colours are d3-scale-chromatic's); the
 * hot spots' Class, the envelope in JSON and XML, maps, and the legend route agreeing with
 * the envelope in every format.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromatic from 'd3-scale-chromatic';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RD_NEW_PRJ, square } from '../support/fixtures.ts';
import { decodePng, hexColour, type DecodedPng } from '../support/png.ts';
import { imagesUrl, startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { writeWidePoints } from '../support/slow-readers.ts';
import { makeTempDir, removeTempDirs } from '../support/temp-dir.ts';

const CATEGORIES = ['forest', 'water', 'urban', 'farmland', 'meadow', 'wetland', 'heath'];
const valueOf = (i: number) => i;
const kindOf = (i: number) => CATEGORIES[(i * 3) % 7];
const maybeOf = (i: number) => (i % 3 === 0 ? null : i * 10);

let server: TestServer;
/** The data folder and themes the server serves, for a second server with other limits. */
let dir: string;
let themesDir: string;
beforeAll(async () => {
  dir = makeTempDir('thematic-');
  // Square i at column i % 10 and row ⌊i / 10⌋, a kilometre a side in RD New (drawn as it is on images).
  const features = Array.from({ length: 100 }, (_, i) => ({
    type: 'Feature',
    properties: { VALUE: valueOf(i), KIND: kindOf(i), MAYBE: maybeOf(i), NAME: `Square ${i}` },
    geometry: { type: 'Polygon', coordinates: [square(150_000 + (i % 10) * 1000, 450_000 + Math.floor(i / 10) * 1000, 1000).reverse()] },
  }));
  writeFileSync(join(dir, 'input.geojson'), JSON.stringify({ type: 'FeatureCollection', features }));
  execFileSync('ogr2ogr', ['-f', 'ESRI Shapefile', join(dir, 'grid.shp'), join(dir, 'input.geojson')]);
  writeFileSync(join(dir, 'grid.prj'), RD_NEW_PRJ);
  // Five lines 1 km apart, each its own category.
  const lines = Array.from({ length: 5 }, (_, k) => ({
    type: 'Feature',
    properties: { ROAD: `road ${k}` },
    geometry: { type: 'LineString', coordinates: [[150_000, 450_000 + k * 1000], [160_000, 450_000 + k * 1000]] },
  }));
  writeFileSync(join(dir, 'lines.geojson'), JSON.stringify({ type: 'FeatureCollection', features: lines }));
  execFileSync('ogr2ogr', ['-f', 'ESRI Shapefile', join(dir, 'roads.shp'), join(dir, 'lines.geojson')]);
  writeFileSync(join(dir, 'roads.prj'), RD_NEW_PRJ);
  // 100,000 points, each with its own 254-character text: hostile to categories and to labels.
  writeWidePoints(dir, 'wide', { count: 100_000, fields: 1 });
  themesDir = makeTempDir('thematic-themes-');
  writeFileSync(join(themesDir, 'gridrules.json'), JSON.stringify({ name: 'GridRules', lineWidth: 0, fillColor: '#FFFF00', rules: RULES }));
  // A map of 100,000 points takes seconds on a loaded machine: the test is of bounds, not of time.
  server = await startServer({ dataDir: dir, themesDir, render: { workers: 1 }, limits: { requestTimeoutMs: 120_000 } });
});
afterAll(async () => {
  await server?.close();
  removeTempDirs();
});

interface LegendJson {
  Field: string | null;
  Method: string;
  Classes: { Label: string; Color: string; Min: number | null; Max: number | null; Value: unknown; Count: number }[];
}

/** Forest first (whatever its value), then low values, then high MAYBE (a null MAYBE matches no comparison), then the default. */
const RULES = [
  { filter: "KIND = 'forest'", fillColor: '#FF0000', label: 'Forest' },
  { filter: 'VALUE < 50', fillColor: '#0000FF' },
  { filter: 'MAYBE > 500', fillColor: '#00FF00', label: 'High' },
  { label: 'Other' },
];
const ruleOf = (i: number) => (kindOf(i) === 'forest' ? 0 : valueOf(i) < 50 ? 1 : (maybeOf(i) ?? -Infinity) > 500 ? 2 : 3);

const EVERY_SQUARE = 'VALUE >= 0';
/** 10 px a square, no buffer, no outline: square i's middle is at a known pixel. */
const GRID_PICTURE = { where: EVERY_SQUARE, singleImage: 1, size: '100,100', buffer: 0, lineWidth: 0 };

async function styled(parameters: Record<string, string | number>) {
  const response = await fetch(imagesUrl(server, { file: 'grid', ...GRID_PICTURE, includeHotSpots: 1, format: 'json', ...parameters }));
  const body = await response.json();
  expect(response.status, JSON.stringify(body).slice(0, 500)).toBe(200);
  const image = body.Resource.ShapefileFeatureImages[0];
  return {
    legend: body.Resource.Legend as LegendJson,
    png: decodePng(new Uint8Array(image.FeatureImage)),
    hotSpots: image.FeatureHotSpots as { FeatureId: number; Class?: number }[],
  };
}

/** The pixel in the middle of square i (rows count up from the bottom). */
function middleOf(png: DecodedPng, i: number) {
  const [x, y] = [(i % 10) * 10 + 5, (9 - Math.floor(i / 10)) * 10 + 5];
  return png.pixel(Math.round((x * png.width) / 100), Math.round((y * png.height) / 100));
}

const hex = hexColour;

/** The class a numeric value belongs to: the first whose Max is at least it. */
const numericClass = (legend: LegendJson, value: number) => legend.Classes.findIndex((entry) => entry.Max !== null && value <= entry.Max);

describe('styleBy on images', () => {
  it('equal intervals: exact bounds, each square its class colour, YlOrRd by default, hot spots carrying the class', async () => {
    const { legend, png, hotSpots } = await styled({ styleBy: 'value', classify: 'equal', classes: 5 });
    expect(legend.Field).toBe('VALUE');
    expect(legend.Method).toBe('equal');
    const step = 99 / 5;
    expect(legend.Classes.map((entry) => [entry.Min, entry.Max])).toEqual(
      Array.from({ length: 5 }, (_, k) => [expect.closeTo(k * step, 9), expect.closeTo(k === 4 ? 99 : (k + 1) * step, 9)]),
    );
    expect(legend.Classes[0].Min).toBe(0);
    expect(legend.Classes[4].Max).toBe(99);
    expect(legend.Classes.map((entry) => entry.Color)).toEqual(chromatic.schemeYlOrRd[5]);
    expect(legend.Classes.map((entry) => entry.Count)).toEqual([20, 20, 20, 20, 20]);
    for (let i = 0; i < 100; i++) {
      const index = numericClass(legend, valueOf(i));
      expect(hex(middleOf(png, i)), `square ${i}`).toBe(legend.Classes[index].Color);
      expect(hotSpots.find((spot) => spot.FeatureId === i)?.Class, `square ${i}'s hot spot`).toBe(index);
    }
  });

  for (const method of ['quantile', 'jenks']) {
    it(`${method}: classes in order without gaps, counts adding up, every square its class colour`, async () => {
      const { legend, png } = await styled({ styleBy: 'VALUE', classify: method, classes: 4, palette: 'blues' });
      expect(legend.Method).toBe(method);
      expect(legend.Classes.map((entry) => entry.Color)).toEqual(chromatic.schemeBlues[4]);
      expect(legend.Classes.reduce((sum, entry) => sum + entry.Count, 0)).toBe(100);
      legend.Classes.forEach((entry, k) => {
        expect(entry.Min).toBeLessThanOrEqual(entry.Max!);
        if (k > 0) expect(entry.Min).toBeGreaterThanOrEqual(legend.Classes[k - 1].Max!);
      });
      for (let i = 0; i < 100; i++) expect(hex(middleOf(png, i)), `square ${i}`).toBe(legend.Classes[numericClass(legend, valueOf(i))].Color);
    });
  }

  it('categories: a class per value in order of first appearance, Set2 colours, reversePalette reverses them', async () => {
    const { legend, png } = await styled({ styleBy: 'KIND' });
    expect(legend.Method).toBe('categories');
    const order = [...new Set(Array.from({ length: 100 }, (_, i) => kindOf(i)))];
    expect(legend.Classes.map((entry) => entry.Value)).toEqual(order);
    expect(legend.Classes.map((entry) => entry.Color)).toEqual(chromatic.schemeSet2.slice(0, 7));
    expect(legend.Classes.every((entry) => entry.Min === null && entry.Max === null)).toBe(true);
    for (let i = 0; i < 100; i++) expect(hex(middleOf(png, i)), `square ${i}`).toBe(legend.Classes[order.indexOf(kindOf(i))].Color);
    const reversed = await styled({ styleBy: 'KIND', palette: 'Set2', reversePalette: 1 });
    expect(reversed.legend.Classes.map((entry) => entry.Color)).toEqual(chromatic.schemeSet2.slice(0, 7).reverse());
  });

  it('null values: their own class, last, "no value", drawn in nullColor', async () => {
    const { legend, png, hotSpots } = await styled({ styleBy: 'MAYBE', nullColor: '00FF00' });
    const last = legend.Classes.at(-1)!;
    expect(last).toMatchObject({ Label: 'no value', Value: null, Min: null, Max: null, Color: '#00ff00', Count: 34 });
    for (let i = 0; i < 100; i += 3) {
      expect(hex(middleOf(png, i)), `square ${i}`).toBe('#00ff00');
      expect(hotSpots.find((spot) => spot.FeatureId === i)?.Class).toBe(legend.Classes.length - 1);
    }
  });

  it('classes over the where= selection: the legend describes what is drawn', async () => {
    const { legend } = await styled({ styleBy: 'VALUE', classify: 'equal', classes: 2, where: 'VALUE < 50' });
    expect(legend.Classes.map((entry) => [entry.Min, entry.Max])).toEqual([
      [0, 24.5],
      [24.5, 49],
    ]);
  });

  it('colours lines by class: a line has no fill, its class colour is its stroke', async () => {
    const response = await fetch(
      imagesUrl(server, { file: 'roads', where: "ROAD LIKE 'road%'", singleImage: 1, size: '100,100', buffer: 0, lineWidth: 4, styleBy: 'ROAD', includeHotSpots: 1, format: 'json' }),
    );
    const body = await response.json();
    expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    const legend = body.Resource.Legend as LegendJson;
    const png = decodePng(new Uint8Array(body.Resource.ShapefileFeatureImages[0].FeatureImage));
    // 10 km by 4 km in 100 px: 0.01 px a metre, the lines 10 px apart, centred from y = 70 (k = 0) up to 30.
    for (let k = 0; k < 5; k++) expect(hex(png.pixel(50, 70 - 10 * k)), `road ${k}`).toBe(legend.Classes[k].Color);
  });

  it("keeps nullColor's alpha where it draws, and writes it #RRGGBB in the legend", async () => {
    const { legend, png } = await styled({ styleBy: 'MAYBE', nullColor: '#00FFFFFF' });
    expect(legend.Classes.at(-1)!.Color).toBe('#ffffff');
    // Fully transparent: the squares with no value are not drawn over the transparent background.
    expect(middleOf(png, 0)[3]).toBe(0);
    expect(middleOf(png, 1)[3]).toBe(255);
  });

  it('does not read what it ignores: the thematic parameters without what they act on', async () => {
    const ignoredAlone: Record<string, string | number>[] = [{ classes: 13 }, { palette: 'nope' }, { nullColor: 'zz' }, { labelSize: 100 }, { legend: 2 }, { legendPosition: 'middle' }];
    for (const ignored of ignoredAlone) {
      const response = await fetch(imagesUrl(server, { file: 'grid', ...GRID_PICTURE, format: 'json', ...ignored }));
      expect(response.status, JSON.stringify(ignored)).toBe(200);
    }
    for (const name of ['style', 'styles', 'class', 'layers']) {
      const response = await fetch(imagesUrl(server, { file: 'grid', ...GRID_PICTURE, format: 'json', [name]: 'x' }));
      expect(response.status, name).toBe(200);
    }
  });

  it('places no label under the legend', async () => {
    const parameters = { ...GRID_PICTURE, size: '200,200', styleBy: 'KIND', legend: 1, legendPosition: 'topleft', labelField: 'NAME', labelSize: 8 };
    const response = await fetch(imagesUrl(server, { file: 'grid', ...parameters, format: 'svg' }));
    const svg = await response.text();
    const legendBox = /<g><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/.exec(svg);
    expect(legendBox, 'the legend is drawn').not.toBeNull();
    const [x, y, width, height] = legendBox!.slice(1).map(Number);
    // Each label is one path of glyph outlines in the labels' group: its first point lies in the label; none in the legend's box.
    const labels = /<g fill="#222222" stroke="#ffffff"[^>]*>(.*?)<\/g>/.exec(svg)![1];
    const labelStarts = [...labels.matchAll(/<path d="M([\d.]+) ([\d.]+)/g)].map((match) => [Number(match[1]), Number(match[2])]);
    expect(labelStarts.length).toBeGreaterThan(5);
    for (const [lx, ly] of labelStarts) expect(lx >= x && lx <= x + width && ly >= y && ly <= y + height, `label at ${lx},${ly}`).toBe(false);
  });

  it('gives the same colours in the SVG (format=svg) as in the PNG', async () => {
    const { legend } = await styled({ styleBy: 'KIND' });
    const response = await fetch(imagesUrl(server, { file: 'grid', ...GRID_PICTURE, styleBy: 'KIND', format: 'svg' }));
    const svg = await response.text();
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    const fills = new Set([...svg.matchAll(/<path d="[^"]*" fill="(#[0-9a-f]{6})"/g)].map((match) => match[1]));
    expect([...fills].sort()).toEqual(legend.Classes.map((entry) => entry.Color).sort());
  });

  it('labels the features in labelColor, at every scale', async () => {
    const inks: number[] = [];
    for (const scale of [1, 2, 3]) {
      const response = await fetch(
        imagesUrl(server, { file: 'grid', ...GRID_PICTURE, size: '200,200', labelField: 'VALUE', labelColor: 'FF00FF', labelSize: 10, fillColor: 'FFFFFF', scale, format: 'png' }),
      );
      expect(response.status).toBe(200);
      const png = decodePng(new Uint8Array(await response.arrayBuffer()));
      let ink = 0;
      for (let y = 0; y < png.height; y++) {
        for (let x = 0; x < png.width; x++) {
          const [r, g, b] = png.pixel(x, y);
          // Magenta, or anti-aliased towards the white fill and halo: green well below red and blue.
          if (g < r - 64 && g < b - 64) ink++;
        }
      }
      inks.push(ink);
    }
    // Every square's number fits its 20 px square: a hundred labels' ink, four and nine times as many pixels at scale 2 and 3.
    expect(inks[0]).toBeGreaterThan(100 * 15);
    expect(inks[1] / inks[0]).toBeCloseTo(4, 0);
    expect(inks[2] / inks[0]).toBeCloseTo(9, -1);
  });

  it('carries the same Legend in XML, after the images, nulls as i:nil', async () => {
    const response = await fetch(imagesUrl(server, { file: 'grid', ...GRID_PICTURE, styleBy: 'MAYBE', format: 'xml' }));
    const xml = await response.text();
    expect(response.status).toBe(200);
    expect(xml).toMatch(/<\/ShapefileFeatureImages><Legend><Field>MAYBE<\/Field><Method>quantile<\/Method><Classes><LegendClass><Label>/);
    expect(xml).toContain('<Label>no value</Label><Color>#cccccc</Color><Min i:nil="true"/><Max i:nil="true"/><Value i:nil="true"/><Count>34</Count>');
  });

  it('refuses what it cannot do, naming it: an unknown field, a numeric method on text, classes=13, an unknown palette', async () => {
    const cases: [Record<string, string | number>, RegExp][] = [
      [{ styleBy: 'NOPE' }, /'styleBy'.*no field 'NOPE'.*VALUE/],
      [{ styleBy: 'KIND', classify: 'quantile' }, /KIND/],
      [{ styleBy: 'VALUE', classes: 13 }, /'classes' must be an integer from 2 to 12/],
      [{ styleBy: 'VALUE', palette: 'Rainbowz' }, /'palette' must be one of/],
      [{ labelField: 'NOPE' }, /'labelField'.*no field 'NOPE'/],
    ];
    for (const [parameters, message] of cases) {
      const response = await fetch(imagesUrl(server, { file: 'grid', ...GRID_PICTURE, format: 'json', ...parameters }));
      const body = await response.json();
      expect(response.status, JSON.stringify(parameters)).toBe(400);
      expect(body.ErrorDetails).toMatch(message);
    }
  });
});

describe('the legend route', () => {
  const legendUrl = (parameters: Record<string, string | number>) =>
    server.url(`/REST/v1/shapefiles/legend?${new URLSearchParams({ key: TEST_KEY, file: 'grid', ...Object.fromEntries(Object.entries(parameters).map(([k, v]) => [k, String(v)])) })}`);
  const STYLE = { styleBy: 'VALUE', classify: 'quantile', classes: 6, palette: 'viridis' };

  it('answers in JSON and XML the Legend the images envelope carries', async () => {
    const { legend } = await styled(STYLE);
    const json = await (await fetch(legendUrl({ ...STYLE, format: 'json' }))).json();
    expect(json.Resource).toMatchObject({ Shapefile: 'grid', Legend: legend });
    expect(json.Resource.__type).toMatch(/^ShapefileLegend:/);
    const xml = await (await fetch(legendUrl({ ...STYLE, format: 'xml' }))).text();
    expect(xml).toContain('<Resource i:type="ShapefileLegend"><Shapefile>grid</Shapefile><Legend><Field>VALUE</Field>');
    for (const entry of legend.Classes) expect(xml).toContain(`<Color>${entry.Color}</Color>`);
  });

  it('draws it as PNG (the default) and SVG with every class colour', async () => {
    const { legend } = await styled(STYLE);
    const pngResponse = await fetch(legendUrl(STYLE));
    expect(pngResponse.headers.get('content-type')).toBe('image/png');
    const png = decodePng(new Uint8Array(await pngResponse.arrayBuffer()));
    const colours = new Set<string>();
    for (let y = 0; y < png.height; y++) for (let x = 0; x < png.width; x++) colours.add(hex(png.pixel(x, y)));
    for (const entry of legend.Classes) expect(colours, entry.Color).toContain(entry.Color);
    const svgResponse = await fetch(legendUrl({ ...STYLE, format: 'svg' }));
    expect(svgResponse.headers.get('content-type')).toBe('image/svg+xml');
    const svg = await svgResponse.text();
    for (const entry of legend.Classes) expect(svg.toLowerCase()).toContain(entry.Color);
    const twice = decodePng(new Uint8Array(await (await fetch(legendUrl({ ...STYLE, scale: 2 }))).arrayBuffer()));
    expect([twice.width, twice.height]).toEqual([png.width * 2, png.height * 2]);
  });

  it('needs something to show: 400 without styleBy', async () => {
    const response = await fetch(legendUrl({ format: 'json' }));
    expect(response.status).toBe(400);
    expect((await response.json()).ErrorDetails).toMatch(/'styleBy' is required/);
  });
});

describe('styleBy on maps', () => {
  it('colours the features by class over the basemap, with the Legend and the hot spots Class', async () => {
    const url = server.url(`/REST/v1/shapefiles/map?${new URLSearchParams({ key: TEST_KEY, file: 'grid', styleBy: 'KIND', includeHotSpots: '1', format: 'json', lineWidth: '0' })}`);
    const response = await fetch(url);
    const body = await response.json();
    expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    const legend = body.Resource.Legend as LegendJson;
    expect(legend.Classes).toHaveLength(7);
    const hotSpots = body.Resource.ShapefileFeatureImages[0].FeatureHotSpots as { FeatureId: number; Class: number }[];
    expect(hotSpots).toHaveLength(100);
    for (const spot of hotSpots) expect(legend.Classes[spot.Class].Value).toBe(kindOf(spot.FeatureId));
  });
});

describe("a theme's rules", () => {
  it('colour each feature by the first rule it matches; a rule without filter is the default, in the theme fill', async () => {
    const { legend, png, hotSpots } = await styled({ theme: 'GridRules' });
    expect(legend.Field).toBeNull();
    expect(legend.Method).toBe('rules');
    expect(legend.Classes.map((entry) => [entry.Label, entry.Color])).toEqual([
      ['Forest', '#ff0000'],
      ['VALUE < 50', '#0000ff'],
      ['High', '#00ff00'],
      ['Other', '#ffff00'],
    ]);
    const expectedCounts = [0, 0, 0, 0];
    for (let i = 0; i < 100; i++) {
      const rule = ruleOf(i);
      expectedCounts[rule]++;
      expect(hex(middleOf(png, i)), `square ${i}`).toBe(legend.Classes[rule].Color);
      expect(hotSpots.find((spot) => spot.FeatureId === i)?.Class, `square ${i}'s hot spot`).toBe(rule);
    }
    expect(legend.Classes.map((entry) => entry.Count)).toEqual(expectedCounts);
  });

  it('give way to styleBy, which overrides them', async () => {
    const { legend } = await styled({ theme: 'GridRules', styleBy: 'KIND' });
    expect(legend.Method).toBe('categories');
  });
});

describe('hostile styling', () => {
  it('100,000 distinct values under categories: maxCategories classes and one "other"', async () => {
    const response = await fetch(server.url(`/REST/v1/shapefiles/legend?key=${TEST_KEY}&file=wide&styleBy=F000&format=json`));
    const body = await response.json();
    expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
    const classes = (body.Resource.Legend as LegendJson).Classes;
    expect(classes).toHaveLength(25);
    expect(classes.at(-1)).toMatchObject({ Label: 'other', Value: null, Count: 100_000 - 24 });
  });

  it('a legend that cannot fit the limits: a 400 naming them, not a 500', async () => {
    const small = await startServer({ dataDir: dir, themesDir, render: { workers: 1 }, limits: { maxSize: 16 } });
    try {
      const response = await fetch(small.url(`/REST/v1/shapefiles/legend?key=${TEST_KEY}&file=grid&styleBy=KIND&format=json`));
      expect(response.status).toBe(200);
      const picture = await fetch(small.url(`/REST/v1/shapefiles/legend?key=${TEST_KEY}&file=grid&styleBy=KIND&format=png`));
      const text = await picture.text();
      expect([picture.status, /limits\.maxSize/.test(text)], text).toEqual([400, true]);
    } finally {
      await small.close();
    }
  });

  it('labels of 254 characters on 100,000 points: a bounded answer', async () => {
    const url = server.url(`/REST/v1/shapefiles/map?key=${TEST_KEY}&file=wide&labelField=F000&styleBy=F000&legend=1&format=png`);
    const response = await fetch(url);
    expect(response.status, response.status === 200 ? '' : await response.text()).toBe(200);
    const png = decodePng(new Uint8Array(await response.arrayBuffer()));
    expect([png.width, png.height]).toEqual([640, 480]);
  }, 150_000);
});
