/**
 * The embedded basemap's own readers against the libraries they replace on its hot path
 * (plugins/embedded/geodata/, flat-parts.ts, simplify.ts, quad-split.ts): the same numbers as
 * topojson-client's decoding and simplify-js's thinning of world-atlas's real files, the same
 * pieces whether a shape is cut where views look or all at once, and derived data kept only
 * while its source is unchanged.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import simplify from 'simplify-js';
import { feature, mesh } from 'topojson-client';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeParts, meshLines, readCompactTopology } from '../../plugins/embedded/geodata/compact-topology.ts';
import { countriesFile, loadCountriesTopology, type NaturalEarthScale } from '../../plugins/embedded/geodata/countries.ts';
import { keepDerived, readDerived } from '../../plugins/embedded/geodata/derived-files.ts';
import { flatFromPositions, positionsOf } from '../../plugins/embedded/flat-parts.ts';
import { piecesMeeting, splitShape, type Shape } from '../../plugins/embedded/quad-split.ts';
import { simplifyParts } from '../../plugins/embedded/simplify.ts';
import { projectToWorldPixels } from '../../plugins/embedded/world-pixels.ts';

const SCALES: NaturalEarthScale[] = ['110m', '50m', '10m'];
const scratch = mkdtempSync(join(tmpdir(), 'shapeshot-embedded-data-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the embedded basemap's data", () => {
  it.each(SCALES)('decodes every land polygon and the borders of 1:%s to the numbers topojson-client gives', (scale) => {
    const compact = readCompactTopology<ReturnType<typeof loadCountriesTopology>['objects']>(readFileSync(countriesFile(scale)));
    const reference = loadCountriesTopology(scale);
    const land = feature(reference, reference.objects.land).features.flatMap(({ geometry }) =>
      geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.type === 'MultiPolygon' ? geometry.coordinates : [],
    );
    const ours = compact.objects.land.geometries.flatMap((object) =>
      (object.type === 'Polygon' ? [object.arcs] : object.type === 'MultiPolygon' ? object.arcs : []).map((rings) => positionsOf(decodeParts(compact, rings, true))),
    );
    expect(ours.length).toBeGreaterThan(100);
    expect(ours).toEqual(land);
    const borders = meshLines(compact, compact.objects.countries, (a, b) => a !== b);
    expect(positionsOf(borders)).toEqual(mesh(reference, reference.objects.countries, (a, b) => a !== b).coordinates);
  });

  it('refuses a file whose arcs are not pairs of numbers, naming what it found', () => {
    const text = (arcs: string) => new TextEncoder().encode(`{"type":"Topology","objects":{},"arcs":${arcs}}`);
    expect(() => readCompactTopology(text('[[[1,2],[3,"x"]]]'))).toThrow(/'"' where its arcs hold numbers/);
    expect(() => readCompactTopology(text('[[[1,2,3]]]'))).toThrow(/not two numbers/);
    expect(() => readCompactTopology(new TextEncoder().encode('{"type":"arcs","objects":{}}'))).toThrow(/no top-level 'arcs'/);
    expect(readCompactTopology(text('[[[1.5,-2e1],[3,4]]]')).coordinates).toEqual(new Float64Array([1.5, -20, 3, 4]));
  });

  it("thins rings and lines as simplify-js's high-quality mode does, to the same positions", () => {
    const compact = readCompactTopology<ReturnType<typeof loadCountriesTopology>['objects']>(readFileSync(countriesFile('50m')));
    const polygons = compact.objects.land.geometries.flatMap((object) => (object.type === 'MultiPolygon' ? object.arcs : []));
    for (const tolerance of [0.01, 0.1, 1]) {
      for (const rings of polygons.slice(0, 200)) {
        const parts = positionsOf(decodeParts(compact, rings, true));
        const expected = parts
          .map((part) => simplify(part.map(([x, y]) => ({ x, y })), tolerance, true).map(({ x, y }) => [x, y]))
          .filter((part) => part.length >= 4);
        expect(positionsOf(simplifyParts(flatFromPositions(parts), 'polygon', tolerance))).toEqual(expected);
      }
    }
  });

  it('gives a view the pieces of cutting a shape whole, in the same order, however the views before it cut it', () => {
    const compact = readCompactTopology<ReturnType<typeof loadCountriesTopology>['objects']>(readFileSync(countriesFile('10m')));
    // Eurasia and Africa: 84,000 positions, across 180°.
    const largest = compact.objects.land.geometries
      .flatMap((object) => (object.type === 'MultiPolygon' ? object.arcs : []))
      .reduce((a, b) => (b.flat().length > a.flat().length ? b : a));
    const projected = projectToWorldPixels({ kind: 'polygon', flat: decodeParts(compact, largest, true) });
    const everywhere = { xmin: -Infinity, ymin: -Infinity, xmax: Infinity, ymax: Infinity };
    const whole: Shape[] = [];
    piecesMeeting(splitShape('polygon', projected)!, everywhere, 4000, whole);
    expect(whole.length).toBeGreaterThan(16);
    const views = [
      { xmin: 130, xmax: 134.5, ymin: 83, ymax: 86.5 },
      { xmin: 0, xmax: 40, ymin: 60, ymax: 100 },
      { xmin: 250, xmax: 256, ymin: 60, ymax: 80 },
    ];
    const lazily = splitShape('polygon', projected)!;
    for (const view of views) {
      const seen: Shape[] = [];
      piecesMeeting(lazily, view, 4000, seen);
      const meeting = whole.filter(({ bbox }) => bbox.xmax >= view.xmin && bbox.xmin <= view.xmax && bbox.ymax >= view.ymin && bbox.ymin <= view.ymax);
      expect(seen.map((piece) => positionsOf(piece.flat))).toEqual(meeting.map((piece) => positionsOf(piece.flat)));
    }
  });

  describe('derived from a package file and kept', () => {
    const source = join(scratch, 'node_modules', 'some-package', 'data.json');
    mkdirSync(join(scratch, 'node_modules', 'some-package'), { recursive: true });
    writeFileSync(source, '{"any": "data"}');
    const kept = join(scratch, 'node_modules', '.cache', 'shapeshot');
    const arrays = [new Float64Array([1.5, -2, Math.PI]), new Uint32Array([0, 7, 4_000_000_000])];

    it('reads back what was kept, beside the package, while the source is unchanged', () => {
      keepDerived(source, 'numbers', 'v1', { what: 'numbers' }, arrays);
      // Nothing left aside: the file written whole, then renamed into place.
      expect(readdirSync(kept)).toEqual(['data.json.numbers']);
      expect(readDerived(source, 'numbers', 'v1')).toEqual({ meta: { what: 'numbers' }, arrays });
    });

    it('derives again when the source or the deriving code changed, or when what was kept is cut short or not its own', () => {
      keepDerived(source, 'numbers', 'v1', { what: 'numbers' }, arrays);
      expect(readDerived(source, 'numbers', 'v2')).toBeUndefined();
      const later = new Date(Date.now() + 60_000);
      utimesSync(source, later, later);
      expect(readDerived(source, 'numbers', 'v1')).toBeUndefined();
      keepDerived(source, 'numbers', 'v1', { what: 'numbers' }, arrays);
      const file = join(kept, 'data.json.numbers');
      const whole = readFileSync(file);
      writeFileSync(file, whole.subarray(0, whole.length - 8));
      expect(readDerived(source, 'numbers', 'v1')).toBeUndefined();
      const elsewhere = join(scratch, 'node_modules', 'other-package', 'data.json');
      mkdirSync(join(scratch, 'node_modules', 'other-package'), { recursive: true });
      copyFileSync(source, elsewhere);
      // Another package's file of the same name finds this one's kept data, which names its source.
      keepDerived(source, 'numbers', 'v1', { what: 'numbers' }, arrays);
      expect(readDerived(elsewhere, 'numbers', 'v1')).toBeUndefined();
    });

    it('derives every time, and says nothing, where the folder cannot be written', () => {
      const readOnly = join(scratch, 'read-only', 'node_modules', 'pkg', 'data.json');
      mkdirSync(join(scratch, 'read-only', 'node_modules', 'pkg'), { recursive: true });
      writeFileSync(readOnly, '{}');
      // A file where the cache folder would be: no folder can be made there.
      writeFileSync(join(scratch, 'read-only', 'node_modules', '.cache'), 'not a folder');
      expect(() => keepDerived(readOnly, 'numbers', 'v1', {}, arrays)).not.toThrow();
      expect(readDerived(readOnly, 'numbers', 'v1')).toBeUndefined();
    });
  });
});
