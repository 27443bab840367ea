/**
 * The embedded basemap's data: Natural Earth land and country borders (world-atlas) at three
 * scales, and one label site per country, all projected once into zoom-0 world pixels so a
 * request only scales, clips and writes the shapes in its view.
 */
import type { MultiLineString, Polygon, Position } from 'geojson';
import { geoArea } from 'd3-geo';
import polylabel from 'polylabel';
import { feature, mesh } from 'topojson-client';
import type { Culture } from '../../src/sdk/plugin.ts';
import { boxOf } from './box.ts';
import { countriesOf, loadCountriesTopology, type NaturalEarthScale } from './geodata/countries.ts';
import { splitShape, type Shape } from './quad-split.ts';
import { simplifyParts } from './simplify.ts';
import { projectPosition, projectToWorldPixels } from './world-pixels.ts';

export interface WorldLayers {
  /** Land polygons, filled without outline (their pieces' cut edges must not show). */
  land: Shape[];
  coasts: Shape[];
  /** Land borders between countries. */
  borders: Shape[];
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

/** Which data, and how finely: the Natural Earth scale and the zoom whose pixels it is simplified for. */
export interface Detail {
  scale: NaturalEarthScale;
  /** Vertices within 0.4 px of the line at this zoom are dropped; undefined keeps every vertex. */
  zoom?: number;
}

const layersByDetail = new Map<string, WorldLayers>();
let labelSites: LabelSite[] | undefined;

/**
 * The layers at `detail`, built on first use (1:10m takes a second or two) and then kept for
 * the life of the process: the data never changes.
 */
export function worldLayers(detail: Detail): WorldLayers {
  const key = `${detail.scale}@${detail.zoom}`;
  let layers = layersByDetail.get(key);
  if (layers === undefined) {
    layers = buildLayers(detail);
    layersByDetail.set(key, layers);
  }
  return layers;
}

/** One site per country (1:50m names and shapes), roomiest first: the order labels are placed in. */
export function countryLabelSites(): LabelSite[] {
  labelSites ??= buildLabelSites();
  return labelSites;
}

function buildLayers({ scale, zoom }: Detail): WorldLayers {
  const topology = loadCountriesTopology(scale);
  const tolerance = zoom === undefined ? 0 : 0.4 / 2 ** zoom;
  const pieces = (kind: 'polygon' | 'line', geometry: Polygon | MultiLineString) => {
    const projected = projectToWorldPixels(withinMercator(geometry));
    const coordinates = tolerance === 0 ? projected : simplifyParts(projected, kind, tolerance);
    return splitShape(kind, coordinates, PIECE_VERTICES);
  };
  const layers: WorldLayers = { land: [], coasts: [], borders: [] };
  for (const { geometry } of feature(topology, topology.objects.land).features) {
    const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.type === 'MultiPolygon' ? geometry.coordinates : [];
    for (const coordinates of polygons) {
      layers.land.push(...pieces('polygon', { type: 'Polygon', coordinates }));
      layers.coasts.push(...pieces('line', { type: 'MultiLineString', coordinates }));
    }
  }
  layers.borders = pieces('line', mesh(topology, topology.objects.countries, (a, b) => a !== b));
  return layers;
}

function withinMercator<G extends Polygon | MultiLineString>(geometry: G): G {
  const clamp = ([lon, lat]: Position) => [lon, Math.max(-LATITUDE_LIMIT, Math.min(LATITUDE_LIMIT, lat))];
  return { ...geometry, coordinates: geometry.coordinates.map((part) => part.map(clamp)) };
}

function buildLabelSites(): LabelSite[] {
  const sites = countriesOf(loadCountriesTopology('50m')).map((country): LabelSite => {
    const polygons =
      country.geometry.type === 'Polygon' ? [country.geometry.coordinates] : country.geometry.coordinates;
    // The largest polygon on the globe, not on the map: Mercator would pick Svalbard over Norway.
    const largest = polygons.reduce((a, b) =>
      geoArea({ type: 'Polygon', coordinates: b }) > geoArea({ type: 'Polygon', coordinates: a }) ? b : a,
    );
    const rings = largest.map((ring) => ring.map(projectPosition));
    // A big country's label is seen at low zoom only, so a pixel there is plenty; the search
    // costs time in proportion to vertices, so the rings are simplified to the same precision.
    const { xmin, ymin, xmax, ymax } = boxOf(rings)!;
    const precision = Math.max(POLE_PRECISION, Math.min(xmax - xmin, ymax - ymin) / 64);
    const [outer, ...holes] = rings;
    const thinnedOuter = simplifyParts([outer], 'polygon', precision);
    // A country within the precision (the Vatican) thins away whole: its few vertices are searched as they are.
    const searched = thinnedOuter.length === 0 ? rings : [...thinnedOuter, ...simplifyParts(holes, 'polygon', precision)];
    // The pole of inaccessibility: a label there sits well inside the shape, where a centroid
    // may fall outside a crescent or into a bay.
    const pole = polylabel(searched as [number, number][][], precision);
    return { names: { English: country.name, Dutch: country.nameNl }, anchor: [pole[0], pole[1]], room: pole.distance };
  });
  return sites.sort((a, b) => b.room - a.room);
}
