/**
 * The playground's panning map, the parts that decide rather than draw: which of the form's
 * parameters the layer's style takes, which fields its vector tiles carry, what a feature
 * under the pointer shows, and the static picture of the view. Pure, like first-look.js:
 * pan-view.js and the page fetch and draw, these decide (docs/tiles.md, "The playground's map").
 */

/**
 * @typedef {import('./envelope.js').HotSpot} HotSpot
 * @typedef {import('./envelope.js').Legend} Legend
 * @typedef {{ label: string, color: string, min: number | null, max: number | null, value: unknown, count: number }} StyleLegendClass
 * @typedef {{ field: string | null, method: string, classes: StyleLegendClass[] }} StyleLegend
 * @typedef {{ id?: string | number, properties?: Record<string, unknown> | null }} MapFeature
 */

/**
 * The most fields a vector tile is asked to carry: each field is in every feature of every
 * tile, so a wide file's tiles would grow with all of them; the hover shows these first ones.
 */
export const MOST_TILE_FIELDS = 8;

/**
 * The form's parameters that are not the layer's style: which features a picture draws (the
 * map shows the whole layer, narrowed by `where=` alone), its size and answer, and the basemap's
 * type and labels (the style's basemap is the Road one).
 */
const NOT_STYLE = new Set(['fid', 'size', 'format', 'includehotspots', 'hotspotfields', 'singleimage', 'type', 'culture']);

/**
 * The property each feature of a classed layer carries: its class's place in the style's legend
 * (docs/tiles.md, "Style JSON"). The server's is src/vector-tile/encode.ts's; the page, served as
 * written, cannot import TypeScript, so it names it again.
 */
export const CLASS_PROPERTY = 'shapeshot_class';

/**
 * The address of the layer's MapLibre style for the form's parameters: its style, theme,
 * thematic and `where=` ones, and the fields the tiles carry. No key: the page sends it in a
 * header, to the style and to every URL the style gives (docs/tiles.md, "Keys").
 * @param {string} file
 * @param {readonly [string, string][]} entries the form's parameters, as the static request names them
 * @param {readonly string[]} fields
 */
export function styleUrl(file, entries, fields) {
  const params = new URLSearchParams(entries.filter(([name]) => !NOT_STYLE.has(name.toLowerCase())));
  if (fields.length > 0) params.set('fields', fields.slice(0, MOST_TILE_FIELDS).join(','));
  return `/REST/v1/shapefiles/tiles/${encodeURIComponent(file)}/style.json?${params.toString().replaceAll('%2C', ',')}`;
}

/**
 * The map operation's zoom nearest to a MapLibre zoom: MapLibre's zoom counts 512-pixel
 * tiles, the map operation's 256-pixel ones (docs/api.md, "The map operation"), so the same
 * scale is one level up; within the map operation's 1 to 22.
 * @param {number} mapLibreZoom
 */
export function staticZoom(mapLibreZoom) {
  return Math.min(22, Math.max(1, Math.round(mapLibreZoom) + 1));
}

/**
 * The static picture of the view: the style's map URL (the same layer and colours) at the
 * view's zoom and size, and, when a feature is chosen, that feature alone, centred as the map
 * operation centres it. It has no key, as the style's URL had none: the page sends it in a
 * header, and whoever uses the URL adds theirs, as the request URL's hint says.
 * @param {string} mapUrl the style's `shapeshot:mapUrl`
 * @param {{ zoom: number, width: number, height: number, fid?: string }} view
 */
export function viewPictureUrl(mapUrl, { zoom, width, height, fid }) {
  const url = new URL(mapUrl);
  if (fid !== undefined) url.searchParams.set('fid', fid);
  url.searchParams.set('size', `${Math.round(height)},${Math.round(width)}`);
  url.searchParams.set('zoom', String(staticZoom(zoom)));
  return url.href.replaceAll('%2C', ',');
}

/**
 * The style's legend as the envelope names it (Label, Color…), so that the page shows a map
 * feature's class as it shows a hot spot's; undefined for a style without classes.
 * @param {StyleLegend | undefined} legend
 * @returns {Legend | undefined}
 */
export function envelopeLegend(legend) {
  if (!legend) return undefined;
  return {
    Field: legend.field,
    Method: legend.method,
    Classes: legend.classes.map((entry) => ({ Label: entry.label, Color: entry.color, Min: entry.min, Max: entry.max, Value: entry.value, Count: entry.count })),
  };
}

/**
 * A feature of the vector tiles as the page shows a hot spot: its fid (the tile's feature
 * id), the fields the tile carries, and its class (from the property the style colours by).
 * @param {MapFeature} feature
 * @returns {HotSpot}
 */
export function hotSpotOf(feature) {
  const { [CLASS_PROPERTY]: classIndex, ...attributes } = feature.properties ?? {};
  const fid = feature.id === undefined ? '' : String(feature.id);
  /** @type {HotSpot} */
  const hotSpot = { Fid: fid, FeatureId: Number(fid), Shape: '', Coords: '', Attributes: attributes };
  if (typeof classIndex === 'number') hotSpot.Class = classIndex;
  return hotSpot;
}

/**
 * The box to open a layer on, from its /ogc collection's extent (WGS 84); undefined when its
 * place is unknown.
 * @param {{ extent?: { spatial?: { bbox?: number[][] } } } | undefined} collection
 * @returns {[[number, number], [number, number]] | undefined}
 */
export function openingBounds(collection) {
  const box = collection?.extent?.spatial?.bbox?.[0];
  if (!box || box.length < 4) return undefined;
  const [west, south, east, north] = box.length === 6 ? [box[0], box[1], box[3], box[4]] : box;
  return [
    [west, Math.max(south, -85)],
    [east, Math.min(north, 85)],
  ];
}
