/**
 * The playground's panning map: MapLibre GL JS (kept in ./maplibre/, loaded the first time
 * the map is opened, so that the page's first look does not wait for it) drawing the layer's
 * vector tiles over the basemap in the colours of the layer's style.json, the feature under the
 * pointer and the one clicked outlined, and the view told to the page. The page decides what
 * to show of them (pan-features.js); docs/tiles.md, "The playground's map".
 */

import { readEnvelope } from './envelope.js';

/**
 * @typedef {import('./pan-features.js').MapFeature} MapFeature
 * @typedef {{ version: number, metadata?: Record<string, unknown>, layers: { id: string, source?: string, 'source-layer'?: string }[] }} MapStyle
 * @typedef {{ zoom: number, width: number, height: number, center: { lng: number, lat: number } }} View
 * @typedef {{
 *   onStyle: (style: MapStyle) => void,
 *   onHover: (feature: MapFeature | undefined) => void,
 *   onChoose: (feature: MapFeature | undefined) => void,
 *   onView: (view: View) => void,
 *   onIdle: (view: View) => void,
 *   onRefused: (message: string) => void,
 *   onProblem: (message: string) => void,
 *   headers: () => Record<string, string>,
 * }} Listeners
 */

/** Where the library and its styles are served (serve-playground.ts); a name, not a literal import, so that the type checker leaves its 1 MB alone. */
const LIBRARY = './maplibre/maplibre-gl.mjs';
const LIBRARY_STYLES = '/playground/maplibre/maplibre-gl.css';
/** The source of the layer's vector tiles in every style.json (docs/tiles.md, "Style JSON"). */
const LAYER_SOURCE = 'shapeshot';
/** Pixels around the pointer a feature is looked for in: a line or a point is hard to hit exactly. */
const REACH = 3;
/** A filter no feature passes: an outline waiting for its feature. */
const NO_FEATURE = ['==', ['id'], -1];

/** The library's module, asked for once. @type {Promise<any> | undefined} */
let library;

function loadLibrary() {
  if (!library) {
    library = Promise.all([import(LIBRARY), loadStyles()]).then(([module]) => module);
    // A failure is not kept: the next map shown asks again.
    library.catch(() => {
      library = undefined;
    });
  }
  return library;
}

/** MapLibre's stylesheet, added to the page once; resolved once it applies, so that the map is laid out by it. */
function loadStyles() {
  return new Promise((resolve, reject) => {
    const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: LIBRARY_STYLES });
    link.addEventListener('load', resolve);
    link.addEventListener('error', () => reject(new Error(`${LIBRARY_STYLES} could not be loaded.`)));
    document.head.append(link);
  });
}

/**
 * The outlines of the hovered and the chosen feature, over the layer, in the page's own
 * colours for them (its --hover and --selected, so the picture's overlay and the map agree).
 * @param {string} sourceLayer
 */
function outlineLayers(sourceLayer) {
  const colours = getComputedStyle(document.documentElement);
  return ['chosen', 'hovered'].flatMap((which) => {
    const colour = colours.getPropertyValue(which === 'chosen' ? '--selected' : '--hover').trim() || '#f5a000';
    const from = { source: LAYER_SOURCE, 'source-layer': sourceLayer, filter: NO_FEATURE };
    return [
      { id: `playground-${which}-line`, type: 'line', ...from, paint: { 'line-color': colour, 'line-width': 3 } },
      { id: `playground-${which}-point`, type: 'circle', ...from, paint: { 'circle-radius': 8, 'circle-opacity': 0, 'circle-stroke-color': colour, 'circle-stroke-width': 3 } },
    ];
  });
}

/** A map in `container` (which must be shown: MapLibre sizes its canvas by it), told to `listeners`. */
export class PanMap {
  /** @type {any} the MapLibre map, made at the first style shown */
  #map;
  /** @type {HTMLElement} */
  #container;
  /** @type {Listeners} */
  #listeners;
  /** @type {string[]} the style's layers that draw the layer's features */
  #featureLayers = [];
  /** @type {string | number | undefined} */
  #hovered;
  /** @type {string | number | undefined} */
  #chosen;
  /** @type {AbortController | undefined} the style being fetched: a newer one abandons it */
  #loading;

  /**
   * @param {HTMLElement} container
   * @param {Listeners} listeners
   */
  constructor(container, listeners) {
    this.#container = container;
    this.#listeners = listeners;
  }

  /**
   * Shows the style at `url` (fetched here, so that a refusal is shown in the server's words);
   * `bounds`, when given, is the view it opens on (another layer), else the view stays.
   * @param {string} url
   * @param {[[number, number], [number, number]] | 'world' | undefined} bounds
   * @returns {Promise<boolean>} whether the style is shown (not refused, nor replaced by a newer one)
   */
  async show(url, bounds) {
    this.#loading?.abort();
    const loading = new AbortController();
    this.#loading = loading;
    try {
      const [maplibre, style] = await Promise.all([loadLibrary(), fetchStyle(url, this.#listeners.headers(), loading.signal)]);
      if (loading.signal.aborted) return false;
      const sourceLayer = style.layers.find((layer) => layer.source === LAYER_SOURCE)?.['source-layer'] ?? '';
      this.#featureLayers = style.layers.filter((layer) => layer.source === LAYER_SOURCE).map((layer) => layer.id);
      const outlined = { ...style, layers: [...style.layers, ...outlineLayers(sourceLayer)] };
      this.#hovered = undefined;
      this.#chosen = undefined;
      this.#listeners.onStyle(style);
      if (!this.#map) this.#map = this.#makeMap(maplibre, outlined, bounds);
      else {
        this.#map.setStyle(outlined, { diff: false });
        if (bounds === 'world') this.#map.jumpTo({ center: [0, 20], zoom: 0 });
        else if (bounds) this.#map.fitBounds(bounds, { padding: 20, animate: false });
      }
      return true;
    } catch (error) {
      if (!loading.signal.aborted) this.#listeners.onRefused(error instanceof Error ? error.message : String(error));
      return false;
    }
  }

  /** The map's canvas follows its container's size (after the container was hidden, for one). */
  resize() {
    this.#map?.resize();
  }

  /**
   * @param {any} maplibre
   * @param {MapStyle} style
   * @param {[[number, number], [number, number]] | 'world' | undefined} bounds
   */
  #makeMap(maplibre, style, bounds) {
    const map = new maplibre.Map({
      container: this.#container,
      style,
      ...(bounds && bounds !== 'world' ? { bounds, fitBoundsOptions: { padding: 20 } } : { center: [0, 20], zoom: 0 }),
      // A static picture is north up and flat: the view it is one click away from must be too.
      dragRotate: false,
      pitchWithRotate: false,
      touchPitch: false,
      maxPitch: 0,
      // The key goes in a header, as the page's own requests send it: the style's URLs carry none (docs/tiles.md, "Keys").
      transformRequest: (/** @type {string} */ url) => (new URL(url, location.href).origin === location.origin ? { url, headers: this.#listeners.headers() } : { url }),
    });
    map.touchZoomRotate.disableRotation();
    map.keyboard.disableRotation();
    map.addControl(new maplibre.NavigationControl({ showCompass: false }));
    map.on('mousemove', (/** @type {any} */ event) => this.#hover(this.#featureAt(event.point)));
    map.on('mouseout', () => this.#hover(undefined));
    map.on('click', (/** @type {any} */ event) => this.#choose(this.#featureAt(event.point)));
    map.on('load', () => this.#listeners.onView(this.#view()));
    map.on('moveend', () => this.#listeners.onView(this.#view()));
    map.on('resize', () => this.#listeners.onView(this.#view()));
    map.on('idle', () => this.#listeners.onIdle(this.#view()));
    // A listener of its own keeps MapLibre from writing the failure to the console; the page says it.
    map.on('error', (/** @type {any} */ event) => this.#listeners.onProblem(failureOf(event.error)));
    return map;
  }

  /** @returns {View} */
  #view() {
    const canvas = this.#map.getCanvas();
    const { lng, lat } = this.#map.getCenter();
    return { zoom: this.#map.getZoom(), width: canvas.clientWidth, height: canvas.clientHeight, center: { lng, lat } };
  }

  /**
   * The feature drawn at a point of the map (the topmost), if any.
   * @param {{ x: number, y: number }} point
   * @returns {MapFeature | undefined}
   */
  #featureAt({ x, y }) {
    const found = this.#map.queryRenderedFeatures(
      [
        [x - REACH, y - REACH],
        [x + REACH, y + REACH],
      ],
      { layers: this.#featureLayers.filter((id) => this.#map.getLayer(id)) },
    );
    return found[0];
  }

  /** @param {MapFeature | undefined} feature */
  #hover(feature) {
    if (feature?.id === this.#hovered) return;
    this.#hovered = feature?.id;
    this.#outline('hovered', this.#hovered);
    this.#map.getCanvas().style.cursor = feature ? 'pointer' : '';
    this.#listeners.onHover(feature);
  }

  /** A click chooses the feature under it; on the chosen one, lets it go. @param {MapFeature | undefined} feature */
  #choose(feature) {
    if (!feature) return;
    this.#chosen = feature.id === this.#chosen ? undefined : feature.id;
    this.#outline('chosen', this.#chosen);
    this.#listeners.onChoose(this.#chosen === undefined ? undefined : feature);
  }

  /**
   * @param {'hovered' | 'chosen'} which
   * @param {string | number | undefined} id
   */
  #outline(which, id) {
    const filter = id === undefined ? NO_FEATURE : ['==', ['id'], id];
    for (const kind of ['line', 'point']) {
      const layer = `playground-${which}-${kind}`;
      if (this.#map.getLayer(layer)) this.#map.setFilter(layer, kind === 'point' ? ['all', filter, ['==', ['geometry-type'], 'Point']] : filter);
    }
  }
}

/**
 * A failure of the map (a tile refused, mostly) in words: its status and the path it was
 * asked at, never the whole URL, which holds the key.
 * @param {any} error MapLibre's (an AJAXError for a request: status, statusText, url)
 */
function failureOf(error) {
  if (typeof error?.status !== 'number' || typeof error.url !== 'string') return error?.message ?? String(error);
  return `${error.status} ${error.statusText} for ${new URL(error.url, location.href).pathname}`;
}

/**
 * The style.json at `url`; its refusal as the server words it (the envelope's ErrorDetails).
 * @param {string} url
 * @param {Record<string, string>} headers
 * @param {AbortSignal} signal
 * @returns {Promise<MapStyle>}
 */
async function fetchStyle(url, headers, signal) {
  const response = await fetch(url, { headers, signal });
  const text = await response.text();
  if (!response.ok) throw new Error(`${response.status}: ${readEnvelope(text, response.headers.get('Content-Type')).errorDetails || response.statusText}`);
  return JSON.parse(text);
}
