/**
 * The embedded basemap's data: Natural Earth land and country borders (world-atlas) at three
 * scales, and one label site per country. Each shape is known by its box from the start and
 * projected into zoom-0 world pixels, thinned and cut into pieces only when a view first meets
 * it (then kept): a view then only scales, clips and writes the shapes in it, and the first
 * map of a region pays for that region, not for the world (`BENCH_ONLY=cold npm run bench`).
 */
import type { Position } from 'geojson';
import { geoArea } from 'd3-geo';
import polylabel from 'polylabel';
import type { Culture } from '../../src/sdk/plugin.ts';
import { boxesMeet, type Box } from './box.ts';
import { flatBox, flatFromPositions, positionsOf, type FlatParts } from './flat-parts.ts';
import { arcsBox, decodeParts, meshLines, type CompactTopology, type LonLatBox } from './geodata/compact-topology.ts';
import { keepDerived, readDerived } from './geodata/derived-files.ts';
import { cachedTopology } from './geodata/topology-cache.ts';
import { countriesFile, countryNamesOf, type CountriesTopology, type NaturalEarthScale } from './geodata/countries.ts';
import { piecesMeeting, splitShape, type Shape, type SplitShape } from './quad-split.ts';
import { simplifyParts } from './simplify.ts';
import { projectPosition, projectToWorldPixels } from './world-pixels.ts';

/** One layer's shapes, in drawing order. */
export type WorldLayer = readonly WorldShape[];

export interface WorldLayers {
  /** Land polygons, filled without outline (their pieces' cut edges must not show). */
  land: WorldLayer;
  coasts: WorldLayer;
  /** Land borders between countries. */
  borders: WorldLayer;
}

/** A shape of the world: a box that holds it (zoom-0 world pixels), and the shape, made on first use. */
interface WorldShape {
  box: Box;
  shape: () => SplitShape | undefined;
}

export interface LabelSite {
  names: Record<Culture, string>;
  /** Where the label goes, in zoom-0 world pixels: the pole of the country's largest polygon. */
  anchor: Position;
  /** Radius of the largest circle inside that polygon around the anchor, zoom-0 world pixels. */
  room: number;
}

/** Label anchors to within about 2 px at zoom 7. */
const POLE_PRECISION = 2 / 2 ** 7;
/** Vertices per piece of a shape: what a view at any zoom clips at most per piece it meets. */
const PIECE_VERTICES = 4000;
/** Just past Web Mercator's edge: the poles themselves would project to infinity. */
const LATITUDE_LIMIT = 85.1;
/** Boxes are widened by this much (world pixels) so that rounding never leaves out a shape they should hold. */
const BOX_SLACK = 1e-6;
const ANYWHERE: Box = { xmin: -Infinity, ymin: -Infinity, xmax: Infinity, ymax: Infinity };

/** Which data, and how finely: the Natural Earth scale and the zoom whose pixels it is simplified for. */
export interface Detail {
  scale: NaturalEarthScale;
  /** Vertices within 0.4 px of the line at this zoom are dropped; undefined keeps every vertex. */
  zoom?: number;
}

type LandTopology = CompactTopology<CountriesTopology['objects']>;

const topologies = new Map<NaturalEarthScale, LandTopology>();
const layersByDetail = new Map<string, WorldLayers>();
let countrySites: CountrySite[] | undefined;

/** The layers at `detail`, their shapes made as views meet them and then kept for the life of the process: the data never changes. */
export function worldLayers(detail: Detail): WorldLayers {
  const key = `${detail.scale}@${detail.zoom}`;
  let layers = layersByDetail.get(key);
  if (layers === undefined) {
    layers = layersOf(detail);
    layersByDetail.set(key, layers);
  }
  return layers;
}

/** The pieces of `layer` whose boxes meet `view` (zoom-0 world pixels), in drawing order. */
export function piecesInView(layer: WorldLayer, view: Box): Shape[] {
  const pieces: Shape[] = [];
  for (const { box, shape } of layer) {
    if (!boxesMeet(box, view)) continue;
    const made = shape();
    if (made !== undefined) piecesMeeting(made, view, PIECE_VERTICES, pieces);
  }
  return pieces;
}

function topologyAt(scale: NaturalEarthScale): LandTopology {
  let topology = topologies.get(scale);
  if (topology === undefined) {
    topology = cachedTopology<CountriesTopology['objects']>(countriesFile(scale));
    topologies.set(scale, topology);
  }
  return topology;
}

/**
 * What every map needs first, and what costs most to make, made before a map asks: the
 * embedded basemap's worker runs one step at a time as it starts, while the server starts,
 * so that a map asked for meanwhile waits for one step at most. The steps, the costliest
 * first: the 1:10m data, its land polygons that may cross 180° and its borders projected
 * (spherical clipping and joining arcs: Eurasia is one of those polygons), which are then
 * kept for the next process (derived-files.ts), the country label sites, and the data at the
 * other scales.
 */
export function* preparingWorldData(): Generator<void, void, void> {
  landPolygonsAt('10m');
  yield;
  for (const polygon of landPolygonsAt('10m')) {
    if (polygon.box.xmin !== -Infinity) continue; // cannot cross 180°
    polygon.projected('polygon');
    yield;
  }
  projectedBorders('10m');
  keepProjected('10m');
  yield;
  countrySites ??= countrySitesOf(topologyAt('50m'));
  yield;
  for (const scale of ['50m', '110m'] as const) {
    landPolygonsAt(scale);
    yield;
  }
}

/** A land polygon of a topology: a box that holds it once projected, and its projection as a polygon or as lines, made on first use. */
interface LandPolygon {
  box: Box;
  projected: (kind: 'polygon' | 'line') => FlatParts;
}

const landPolygons = new Map<NaturalEarthScale, LandPolygon[]>();

function landPolygonsAt(scale: NaturalEarthScale): LandPolygon[] {
  let polygons = landPolygons.get(scale);
  if (polygons === undefined) {
    const topology = topologyAt(scale);
    const all = topology.objects.land.geometries.flatMap((object) => (object.type === 'Polygon' ? [object.arcs] : object.type === 'MultiPolygon' ? object.arcs : []));
    polygons = all.map((rings, index): LandPolygon => {
      const box = worldBox(arcsBox(topology, rings.flat()), 'as a shape');
      // Cut at 180°, a polygon and its rings as lines differ; one that cannot cross it is projected once for both.
      const mayCross = box.xmin === -Infinity;
      const projected = (kind: 'polygon' | 'line') => {
        const as = mayCross ? kind : 'polygon';
        return projectedParts(scale, `land:${index}:${as}`, () => projectToWorldPixels({ kind: as, flat: withinMercator(decodeParts(topology, rings, true)) }));
      };
      return { box, projected };
    });
    landPolygons.set(scale, polygons);
  }
  return polygons;
}

/** The borders between countries at `scale`, projected (once for every level of detail). */
function projectedBorders(scale: NaturalEarthScale): FlatParts {
  const topology = topologyAt(scale);
  return projectedParts(scale, 'borders', () =>
    projectToWorldPixels({ kind: 'line', flat: withinMercator(meshLines(topology, topology.objects.countries, (a, b) => a !== b)) }),
  );
}

/** A scale's projected shapes: those kept by an earlier process, and those made by this one. */
interface ProjectedStore {
  kept: Map<string, FlatParts>;
  made: Map<string, FlatParts>;
}

const projectedByScale = new Map<NaturalEarthScale, ProjectedStore>();

/** The shape projected under `key`, made the first time it is asked for (or read as an earlier process kept it). */
function projectedParts(scale: NaturalEarthScale, key: string, make: () => FlatParts): FlatParts {
  let store = projectedByScale.get(scale);
  if (store === undefined) {
    store = { kept: keptProjections(scale), made: new Map() };
    projectedByScale.set(scale, store);
  }
  let parts = store.kept.get(key) ?? store.made.get(key);
  if (parts === undefined) {
    parts = make();
    store.made.set(key, parts);
  }
  return parts;
}

/**
 * The version of what makes projected shapes here and in world-pixels.ts (and of d3-geo's
 * projection they rest on): raise it when they project, clamp or cut otherwise, or the shapes
 * kept by an earlier version would be drawn.
 */
const PROJECTION_DERIVATION = 'projected 1 (d3-geo 3, latitudes within 85.1)';

function keptProjections(scale: NaturalEarthScale): Map<string, FlatParts> {
  const kept = readDerived(countriesFile(scale), 'projected', PROJECTION_DERIVATION);
  const keys = kept?.meta;
  if (kept === undefined || !Array.isArray(keys) || kept.arrays.length !== 2 * keys.length) return new Map();
  return new Map(
    keys.flatMap((key, index) => {
      const [xy, starts] = [kept.arrays[2 * index], kept.arrays[2 * index + 1]];
      // Parts that end where the coordinates do: anything else is not what was kept.
      const whole = xy instanceof Float64Array && starts instanceof Uint32Array && starts.length > 0 && 2 * starts[starts.length - 1] === xy.length;
      return typeof key === 'string' && whole ? [[key, { xy, starts }] as const] : [];
    }),
  );
}

/** Keeps what this process projected at `scale`, with what was kept before, for the next process. */
function keepProjected(scale: NaturalEarthScale): void {
  const store = projectedByScale.get(scale);
  if (store === undefined || store.made.size === 0) return;
  const all = [...store.kept, ...store.made];
  keepDerived(
    countriesFile(scale),
    'projected',
    PROJECTION_DERIVATION,
    all.map(([key]) => key),
    all.flatMap(([, { xy, starts }]) => [xy, starts]),
  );
}

function layersOf({ scale, zoom }: Detail): WorldLayers {
  const tolerance = zoom === undefined ? 0 : 0.4 / 2 ** zoom;
  const made = (kind: 'polygon' | 'line', projected: () => FlatParts) =>
    once(() => splitShape(kind, tolerance === 0 ? projected() : simplifyParts(projected(), kind, tolerance)));
  const layers = { land: [] as WorldShape[], coasts: [] as WorldShape[], borders: [] as WorldShape[] };
  for (const { box, projected } of landPolygonsAt(scale)) {
    layers.land.push({ box, shape: made('polygon', () => projected('polygon')) });
    layers.coasts.push({ box, shape: made('line', () => projected('line')) });
  }
  layers.borders.push({ box: ANYWHERE, shape: made('line', () => projectedBorders(scale)) });
  return layers;
}

/**
 * A box that holds what `box` holds once projected: a shape as shapes are projected (within
 * Mercator's latitudes, cut at 180°), or each position alone, as label sites are. Web Mercator
 * keeps the order of longitudes and of latitudes, so the corners bound it; a shape spanning
 * more than half the world may cross 180°, and then spans the world once cut.
 */
function worldBox({ west, south, east, north }: LonLatBox, projected: 'as a shape' | 'by position'): Box {
  const shape = projected === 'as a shape';
  const clamp = (lat: number) => (shape ? Math.max(-LATITUDE_LIMIT, Math.min(LATITUDE_LIMIT, lat)) : lat);
  const [xWest, yNorth] = projectPosition([west, clamp(north)]);
  const [xEast, ySouth] = projectPosition([east, clamp(south)]);
  const whole = shape && east - west > 180;
  return {
    xmin: whole ? -Infinity : xWest - BOX_SLACK,
    xmax: whole ? Infinity : xEast + BOX_SLACK,
    ymin: yNorth - BOX_SLACK,
    ymax: ySouth + BOX_SLACK,
  };
}

/** `parts` (lon/lat, made here and held by nothing else) with their latitudes clamped, in place. */
function withinMercator(parts: FlatParts): FlatParts {
  for (let i = 1; i < parts.xy.length; i += 2) parts.xy[i] = Math.max(-LATITUDE_LIMIT, Math.min(LATITUDE_LIMIT, parts.xy[i]));
  return parts;
}

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** A country's label site, made on first use, and what bounds it before then. */
interface CountrySite {
  /** The boxes of the country's polygons (zoom-0 world pixels): one holds the site's anchor. */
  boxes: Box[];
  /** No site's room is larger: half the shorter side of the largest of them. */
  roomBound: number;
  site: () => LabelSite;
}

/**
 * The label sites that may be placed on a view showing `views` (zoom-0 world pixels, one per
 * copy of the world it shows) with at least `minRoom`, roomiest first: the order labels are
 * placed in. Only the sites of countries in view and large enough are made (1:50m names and shapes).
 */
export function labelSitesMeeting(views: readonly Box[], minRoom: number): LabelSite[] {
  countrySites ??= countrySitesOf(topologyAt('50m'));
  return countrySites
    .filter(({ boxes, roomBound }) => roomBound >= minRoom && boxes.some((box) => views.some((view) => boxesMeet(box, view))))
    .map(({ site }) => site())
    .sort((a, b) => b.room - a.room);
}

function countrySitesOf(topology: LandTopology): CountrySite[] {
  const objects = topology.objects.countries.geometries;
  return countryNamesOf(objects).map((names, index): CountrySite => {
    const object = objects[index];
    if (object.type !== 'Polygon' && object.type !== 'MultiPolygon') throw new Error(`'${names.name}' is a ${object.type}, not a polygon.`);
    const polygons = object.type === 'Polygon' ? [object.arcs] : object.arcs;
    // Each polygon's own box: Russia's, taken whole, would reach across the world from Chukotka.
    const boxes = polygons.map((rings) => worldBox(arcsBox(topology, rings.flat()), 'by position'));
    // Slack over the boxes' own rounding: the bound only lets through, never decides.
    const roomBound = Math.max(...boxes.map((box) => Math.min(box.xmax - box.xmin, box.ymax - box.ymin) / 2)) + BOX_SLACK;
    const site = once(() =>
      labelSite(
        names,
        polygons.map((rings) => positionsOf(decodeParts(topology, rings, true))),
      ),
    );
    return { boxes, roomBound, site };
  });
}

function labelSite({ name, nameNl }: { name: string; nameNl: string }, polygons: Position[][][]): LabelSite {
  // The largest polygon on the globe, not on the map: Mercator would pick Svalbard over Norway.
  const largest = polygons.reduce((a, b) =>
    geoArea({ type: 'Polygon', coordinates: b }) > geoArea({ type: 'Polygon', coordinates: a }) ? b : a,
  );
  const rings = largest.map((ring) => ring.map(projectPosition));
  // A big country's label is seen at low zoom only, so a pixel there is plenty; the search
  // costs time in proportion to vertices, so the rings are simplified to the same precision.
  const { xmin, ymin, xmax, ymax } = flatBox(flatFromPositions(rings))!;
  const precision = Math.max(POLE_PRECISION, Math.min(xmax - xmin, ymax - ymin) / 64);
  const [outer, ...holes] = rings;
  const thinned = (parts: Position[][]) => positionsOf(simplifyParts(flatFromPositions(parts), 'polygon', precision));
  const thinnedOuter = thinned([outer]);
  // A country within the precision (the Vatican) thins away whole: its few vertices are searched as they are.
  const searched = thinnedOuter.length === 0 ? rings : [...thinnedOuter, ...thinned(holes)];
  // The pole of inaccessibility: a label there sits well inside the shape, where a centroid
  // may fall outside a crescent or into a bay.
  const pole = polylabel(searched as [number, number][][], precision);
  return { names: { English: name, Dutch: nameNl }, anchor: [pole[0], pole[1]], room: pole.distance };
}
