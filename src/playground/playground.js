/**
 * The playground's page: the catalog from /ogc, the form turned into an images or map
 * request, and the answer shown as its images with live image maps, its hot spots
 * highlighted on an SVG overlay, its legend and its envelope. On opening it draws a
 * shapefile at once (first-look.js: the sample countries as a choropleth), so that the
 * first thing a newcomer sees is their data under the pointer. The third operation, Map to
 * pan, shows the whole layer as vector tiles to drag and zoom (pan-view.js), the picture of
 * the view one click away.
 * No build step: the browser loads these modules as they are written (MapLibre GL JS, the
 * map's, kept in ./maplibre/).
 */
import { readEnvelope } from './envelope.js';
import { keepKey, openingKey } from './page-key.js';
import { choroplethFor, chosenFile, drawableIds, FIRST_FEATURES, firstRecordIds, hotSpotFieldCap, hotSpotFieldsWithin } from './first-look.js';
import { classOf, defaultMethod, fieldsOfQueryables, legendPreviewPath } from './thematic.js';
import { envelopeLegend, hotSpotOf, MOST_TILE_FIELDS, openingBounds, styleUrl, viewPictureUrl } from './pan-features.js';
import { PanMap } from './pan-view.js';

/**
 * @typedef {import('./envelope.js').HotSpot} HotSpot
 * @typedef {import('./envelope.js').FeatureImage} FeatureImage
 * @typedef {import('./envelope.js').Legend} Legend
 * @typedef {import('./thematic.js').Field} Field
 * @typedef {import('./pan-view.js').View} View
 * @typedef {import('./pan-view.js').MapStyle} MapStyle
 * @typedef {{ id: string, title?: string, links?: { href: string, rel: string }[], shapefile?: { featureCount?: number }, extent?: { spatial?: { bbox?: number[][] } } }} Collection
 * @typedef {{ name: string, description?: string, schema: { enum?: string[] } }} Parameter
 */

const SVG = 'http://www.w3.org/2000/svg';
const QUERYABLES_REL = 'http://www.opengis.net/def/rel/ogc/1.0/queryables';

/**
 * @template {Element} T
 * @param {string} id
 * @param {{ new (): T }} type
 * @returns {T}
 */
function element(id, type) {
  const found = document.getElementById(id);
  if (!(found instanceof type)) throw new Error(`The page has no ${type.name} #${id}.`);
  return found;
}

const form = element('request-form', HTMLFormElement);
const keyInput = element('key', HTMLInputElement);
const keyStatus = element('key-status', HTMLElement);
const fileSelect = element('file', HTMLSelectElement);
const catalogStatus = element('catalog-status', HTMLElement);
const fidInput = element('fid', HTMLInputElement);
const whereInput = element('where', HTMLTextAreaElement);
const firstHint = element('first-hint', HTMLElement);
const fieldsHint = element('fields-hint', HTMLElement);
const imagesOptions = element('images-options', HTMLFieldSetElement);
const mapOptions = element('map-options', HTMLFieldSetElement);
const styleOptions = element('style-options', HTMLFieldSetElement);
const themeSelect = element('theme', HTMLSelectElement);
const fillColorInput = element('fill-color', HTMLInputElement);
const renderStatus = element('render-status', HTMLElement);
const imagesBox = element('images', HTMLElement);
const hoverInfo = element('hover-info', HTMLElement);
const fieldsNote = element('fields-note', HTMLElement);
const selectionList = element('selection', HTMLUListElement);
const requestUrlBox = element('request-url', HTMLElement);
const copyButton = element('copy-url', HTMLButtonElement);
const copyStatus = element('copy-status', HTMLElement);
const envelopeBox = element('envelope', HTMLElement);
const styleBySelect = element('style-by', HTMLSelectElement);
const classifySelect = element('classify', HTMLSelectElement);
const classesInput = element('classes', HTMLInputElement);
const paletteSelect = element('palette', HTMLSelectElement);
const palettePreview = element('palette-preview', HTMLElement);
const reversePaletteInput = element('reverse-palette', HTMLInputElement);
const legendSwitch = element('legend-switch', HTMLInputElement);
const legendPositionSelect = element('legend-position', HTMLSelectElement);
const labelsSwitch = element('labels-switch', HTMLInputElement);
const labelFieldSelect = element('label-field', HTMLSelectElement);
const legendPanel = element('legend-panel', HTMLElement);
const legendField = element('legend-field', HTMLElement);
const legendClasses = element('legend-classes', HTMLUListElement);
const pictureView = element('picture-view', HTMLElement);
const panView = element('pan-view', HTMLElement);
const panStatus = element('pan-status', HTMLElement);
const panMapBox = element('pan-map', HTMLElement);
const panLegendPanel = element('pan-legend-panel', HTMLElement);
const panLegendField = element('pan-legend-field', HTMLElement);
const panLegendClasses = element('pan-legend-classes', HTMLUListElement);
const viewUrlBox = element('view-url', HTMLElement);
const showViewPictureButton = element('show-view-picture', HTMLButtonElement);
const copyViewUrlButton = element('copy-view-url', HTMLButtonElement);
const viewPictureStatus = element('view-picture-status', HTMLElement);
const viewPictureBox = element('view-picture', HTMLElement);

/** @type {Map<string, Collection>} */
let collections = new Map();
/** @type {Map<string, Promise<Field[]>>} the fields of each collection, with their types, asked for once */
const fieldsByCollection = new Map();
/** @type {Map<string, Promise<string[]>>} the ids of each collection's first features, asked for once */
const firstIdsByCollection = new Map();
/** @type {HotSpot | undefined} */
let hovered;
/** @type {Map<string, HotSpot>} selected features by Fid */
const selected = new Map();
/** @type {{ hotSpot: HotSpot, overlay: SVGSVGElement }[]} every area shown, with the overlay of its image */
let shownAreas = [];
/** @type {string[]} blob: URLs of the images shown, released when they are replaced */
let imageUrls = [];
/** @type {AbortController | undefined} the render under way: a newer one (a click, another file) abandons it */
let rendering;
/** @type {AbortController | undefined} the palette preview under way: a newer choice abandons it */
let previewing;
/** @type {Legend | undefined} the legend of the answer shown */
let shownLegend;
/** @type {Field[]} the fields of the file shown, for the thematic pickers */
let shownFields = [];

/** @type {PanMap | undefined} the panning map, made the first time it is shown */
let panMap;
/** @type {{ file: string, url: string } | undefined} the style the map shows, or is loading */
let panShown;
/** @type {HotSpot | undefined} the map's feature under the pointer, shown as a hot spot is */
let panHovered;
/** @type {HotSpot | undefined} the map's feature clicked: the picture of the view draws it alone */
let panChosen;
/** @type {Legend | undefined} the classes of the map's style */
let panLegend;
/** @type {string | undefined} the map operation's URL of the map's style (its `shapeshot:mapUrl`) */
let panMapUrl;
/** @type {View | undefined} the map's view as last moved */
let panViewShown;
/** @type {AbortController | undefined} the picture of the view being fetched: a newer one abandons it */
let viewPicturing;
/** @type {string | undefined} the blob: URL of the picture of the view shown */
let viewPictureUrlShown;
/** @type {string | undefined} what went wrong on the map since its style was shown; said until the next style */
let panProblem;
/** The map's style as the server wrote it, shown where a picture's envelope is. */
let panStyleText = '';

const WHERE_KEYS_COME_FROM =
  'the server printed its start-up key when it started, in the terminal where it runs (open the Playground address it printed there), or use one of the keys it is configured with.';
const NO_KEY = `No access key yet: ${WHERE_KEYS_COME_FROM}`;
const KEY_REFUSED = `This key was not accepted: ${WHERE_KEYS_COME_FROM}`;

/** No key to ask with: the page says where one comes from instead of asking the server. */
function askForKey() {
  keyStatus.textContent = NO_KEY;
  catalogStatus.textContent = 'The shapefiles are listed once the key is given.';
  renderStatus.textContent = 'Nothing drawn yet: no access key.';
}

/**
 * @param {string} path
 * @param {AbortSignal} [signal]
 */
async function fetchWithKey(path, signal) {
  const response = await fetch(path, { headers: { 'X-API-Key': keyInput.value }, signal });
  if (response.status === 401) keyStatus.textContent = keyInput.value === '' ? NO_KEY : KEY_REFUSED;
  return response;
}

/** The message of a failed /ogc answer: OGC's JSON exception when it is one. */
async function failureOf(/** @type {Response} */ response) {
  const text = await response.text();
  try {
    const { description } = JSON.parse(text);
    if (typeof description === 'string') return `${response.status}: ${description}`;
  } catch {
    // Not OGC's exception (another route answered): the status says enough.
  }
  return `${response.status} ${response.statusText}`;
}

/** The images operation's parameters, from this server's own API description; none when it cannot be read. */
async function imageParameters() {
  try {
    const response = await fetch('/openapi.json');
    if (!response.ok) return [];
    /** @type {{ paths: Record<string, { get: { parameters: Parameter[] } }> }} */
    const description = await response.json();
    return description.paths['/REST/v1/shapefiles/images'].get.parameters;
  } catch {
    // Without them the themes are not offered and every field is asked for: the rest works.
    return [];
  }
}

const parameters = imageParameters();
/** The most fields the server takes in hotSpotFields, as its API description states it. */
const fieldCap = parameters.then((list) => hotSpotFieldCap(list.find((parameter) => parameter.name === 'hotSpotFields')?.description));

/** The enumeration the API description gives a parameter of the images operation (theme, palette). */
async function choicesOf(/** @type {string} */ name) {
  const parameter = (await parameters).find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
  return parameter?.schema.enum ?? [];
}

async function loadThemes() {
  themeSelect.append(...(await choicesOf('theme')).map((name) => new Option(name, name)));
}

async function loadPalettes() {
  paletteSelect.append(...(await choicesOf('palette')).map((name) => new Option(name, name)));
}

/**
 * The most shapefiles the picker lists. A data folder may hold 100,000: a <select> of them is no
 * use to pick from, and each page of the list costs the server a description of every file in it
 * (docs/ogc.md, "Collections"). Past it the page says how to open any other: by its name in the
 * address (?file=), which /ogc's pages link to.
 */
const MOST_LISTED = 3000;

/** @type {AbortController | undefined} the catalog being listed: a newer listing (another key) abandons it */
let listing;

/**
 * @typedef {{ collections: Collection[], numberMatched?: number, links?: { href: string, rel: string }[] }} CollectionsPage
 */

/**
 * The pages of /ogc/collections in order, each fetched when the one before has been taken: the
 * server's own page size (a catalog within ogc.maxLimit comes whole in the first), then its
 * `next` links.
 * @param {AbortSignal} signal
 * @returns {AsyncGenerator<CollectionsPage>}
 */
async function* collectionPages(signal) {
  /** @type {string | undefined} */
  let next = '/ogc/collections';
  while (next !== undefined) {
    const response = await fetchWithKey(next, signal);
    if (!response.ok) throw new Error(await failureOf(response));
    /** @type {CollectionsPage} */
    const page = await response.json();
    yield page;
    next = page.links?.find((link) => link.rel === 'next')?.href;
  }
}

/** @type {string | undefined} the chosen collection when it was asked for alone, not (yet) met in the pages */
let askedAlone;

/** How many collections the pages have listed (the one asked for alone is not among them). */
const listedFromPages = () => collections.size - (askedAlone === undefined ? 0 : 1);

/**
 * Collections of a page added to the catalog and the picker, in the pages' order, up to
 * MOST_LISTED. The one asked for alone stays last, until a page brings it to its place.
 */
function list(/** @type {readonly Collection[]} */ page) {
  const chosen = fileSelect.value;
  const alone = Array.from(fileSelect.options).find((option) => option.value === askedAlone);
  for (const collection of page.slice(0, Math.max(0, MOST_LISTED - listedFromPages()))) {
    if (collection.id === askedAlone && alone) {
      askedAlone = undefined;
      fileSelect.append(alone);
    } else if (!collections.has(collection.id)) {
      collections.set(collection.id, collection);
      fileSelect.append(new Option(collection.title ?? collection.id, collection.id));
    }
  }
  // Until a page brings it, the one asked for alone stays last.
  if (askedAlone !== undefined && alone) fileSelect.append(alone);
  // Options added or moved leave the choice as it was.
  if (chosen) fileSelect.value = chosen;
}

/** The collection named `name` (any case), asked for alone: one past the first page, or past what the picker lists. */
async function collectionNamed(/** @type {string} */ name, /** @type {AbortSignal} */ signal) {
  const response = await fetchWithKey(`/ogc/collections/${encodeURIComponent(name)}`, signal);
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(await failureOf(response));
  /** @type {Collection} */
  const collection = await response.json();
  return collection;
}

/**
 * What the status under the picker says of the catalog.
 * @param {{ id: string | undefined, unknown?: string }} choice
 * @param {number} total how many shapefiles the key may see
 * @param {boolean} listing whether more are still being listed
 */
function catalogSummary(choice, total, listing) {
  const listed = collections.size;
  const count = (/** @type {number} */ n) => `${n.toLocaleString('en')} shapefile${n === 1 ? '' : 's'}`;
  if (choice.unknown !== undefined) {
    return listed >= total
      ? `There is no shapefile '${choice.unknown}' among the ${listed} this key may see: showing ${choice.id}; choose another here.`
      : `There is no shapefile '${choice.unknown}' this key may see: showing ${choice.id}; choose another here.`;
  }
  if (listed >= total) return `${count(listed)} this key may see.`;
  if (listing) return `${listed.toLocaleString('en')} of the ${count(total)} this key may see listed; listing more…`;
  return `${listed.toLocaleString('en')} of the ${count(total)} this key may see are listed here; to draw another, name it in the address: ?file=NAME.`;
}

/**
 * The shapefiles this key may see, `preferred` chosen among them (else the opening file of the
 * first page). The first page is enough to choose: a `preferred` not on it is asked for alone.
 * The rest of the list, up to MOST_LISTED, comes in while the chosen file is drawn.
 * @param {string | null} preferred
 * @returns {Promise<boolean>} whether a shapefile is chosen
 */
async function loadCatalog(preferred) {
  listing?.abort();
  const controller = new AbortController();
  listing = controller;
  const { signal } = controller;
  catalogStatus.textContent = 'Loading the catalog…';
  fileSelect.replaceChildren();
  collections = new Map();
  askedAlone = undefined;
  try {
    const pages = collectionPages(signal);
    const first = await pages.next();
    if (!first.done) list(first.value.collections);
    const total = first.done ? 0 : (first.value.numberMatched ?? collections.size);
    const wanted = preferred?.trim();
    if (wanted && collections.size < total && chosenFile(wanted, [...collections.keys()]).unknown !== undefined) {
      const alone = await collectionNamed(wanted, signal);
      if (alone) {
        collections.set(alone.id, alone);
        fileSelect.append(new Option(alone.title ?? alone.id, alone.id));
        askedAlone = alone.id;
      }
    }
    const choice = chosenFile(preferred, [...collections.keys()]);
    if (choice.id === undefined) {
      catalogStatus.textContent = 'This key may see no shapefile: put shapefiles (.shp with its .shx and .dbf) in the data folder, or use a key that may see some.';
      return false;
    }
    fileSelect.value = choice.id;
    const more = listedFromPages() < Math.min(total, MOST_LISTED);
    catalogStatus.textContent = catalogSummary(choice, total, more);
    if (more) void listTheRest(pages, choice, total, signal);
    return true;
  } catch (error) {
    if (signal.aborted) return false;
    catalogStatus.textContent = `The catalog could not be read: ${messageOf(error)}`;
    return false;
  }
}

/**
 * The pages after the first, listed up to MOST_LISTED while the chosen file is drawn.
 * @param {AsyncGenerator<CollectionsPage>} pages
 * @param {{ id: string | undefined, unknown?: string }} choice
 * @param {number} total
 * @param {AbortSignal} signal
 */
async function listTheRest(pages, choice, total, signal) {
  try {
    for await (const page of pages) {
      list(page.collections);
      if (listedFromPages() >= MOST_LISTED) break;
    }
    if (!signal.aborted) catalogStatus.textContent = catalogSummary(choice, total, false);
  } catch (error) {
    if (signal.aborted) return;
    catalogStatus.textContent = `${catalogSummary(choice, total, false)} The rest of the list could not be read: ${messageOf(error)}`;
  }
}

/**
 * What `ask` answers for collection `id`, asked once; a failure is not kept, so the next
 * look asks again.
 * @template T
 * @param {Map<string, Promise<T>>} cache
 * @param {string} id
 * @param {() => Promise<T>} ask
 */
function remembered(cache, id, ask) {
  let answer = cache.get(id);
  if (!answer) {
    answer = ask();
    cache.set(id, answer);
    answer.catch(() => cache.delete(id));
  }
  return answer;
}

/** The `.dbf` fields of a collection with their types, from its queryables (OGC API – Features Part 3). */
function fieldsOf(/** @type {string} */ id) {
  return remembered(fieldsByCollection, id, async () => {
    const link = collections.get(id)?.links?.find((candidate) => candidate.rel === QUERYABLES_REL);
    if (!link) return [];
    const response = await fetchWithKey(link.href);
    if (!response.ok) throw new Error(await failureOf(response));
    return fieldsOfQueryables(await response.json());
  });
}

/** The names of a collection's fields; none when they cannot be read. */
async function fieldNamesOf(/** @type {string} */ id) {
  return (await fieldsOf(id).catch(() => [])).map((field) => field.name);
}

/** The ids of a collection's first features that have a shape: what a form naming no features draws. */
function firstIdsOf(/** @type {string} */ id) {
  return remembered(firstIdsByCollection, id, async () => {
    const collection = collections.get(id);
    const link = collection?.links?.find((candidate) => candidate.rel === 'items');
    if (link) {
      const url = new URL(link.href, location.href);
      url.searchParams.set('limit', String(FIRST_FEATURES));
      const response = await fetchWithKey(url.href);
      if (response.ok) return drawableIds(await response.json());
    }
    return firstRecordIds(collection?.shapefile?.featureCount ?? 1);
  });
}

/**
 * The chosen shapefile's fields (in the hints and the thematic pickers) and first features;
 * drawn at once while the form names no features. `opening`: the page's first look, which
 * shows the sample countries as a choropleth (first-look.js).
 */
async function showFile(opening = false) {
  const id = fileSelect.value;
  if (!id) return;
  const fieldsShown = showFields(id, opening);
  // The render starts (and says so) at once, and reads the form once the pickers hold this file's fields.
  // The map to pan shows the whole layer whatever the ids: it follows every file chosen.
  await Promise.all([showFirstIds(id), blankSelection() || operation() === 'tiles' ? render(fieldsShown) : undefined, fieldsShown.then(showPalettePreview)]);
}

async function showFields(/** @type {string} */ id, /** @type {boolean} */ opening) {
  try {
    const fields = await fieldsOf(id);
    if (id !== fileSelect.value) return;
    fieldsHint.textContent = `Fields: ${fields.map((field) => field.name).join(', ') || 'none'}.`;
    showThematicFields(fields);
    const choropleth = opening ? choroplethFor(id, fields.map((field) => field.name)) : undefined;
    if (choropleth) {
      styleBySelect.value = choropleth.styleBy;
      labelFieldSelect.value = choropleth.labelField;
      labelsSwitch.checked = true;
      legendSwitch.checked = true;
      element('line-color', HTMLInputElement).value = choropleth.lineColor;
      element('line-width', HTMLInputElement).value = String(choropleth.lineWidth);
      legendPositionSelect.value = choropleth.legendPosition;
    }
  } catch (error) {
    if (id !== fileSelect.value) return;
    fieldsHint.textContent = `Fields unavailable: ${messageOf(error)}`;
    showThematicFields([]);
  }
  syncOptions();
}

/**
 * The file's fields in the thematic pickers, each with its type; a field chosen before
 * stays chosen where this file has it too.
 */
function showThematicFields(/** @type {Field[]} */ fields) {
  shownFields = fields;
  const fieldOption = (/** @type {Field} */ field) => new Option(`${field.name} (${field.type})`, field.name);
  const keep = (/** @type {HTMLSelectElement} */ select, /** @type {string} */ before) => {
    select.value = fields.some((field) => field.name === before) ? before : select.options[0]?.value ?? '';
  };
  const [styleBy, labelField] = [styleBySelect.value, labelFieldSelect.value];
  styleBySelect.replaceChildren(new Option('None: one style for every feature', ''), ...fields.map(fieldOption));
  labelFieldSelect.replaceChildren(...fields.map(fieldOption));
  keep(styleBySelect, styleBy);
  keep(labelFieldSelect, labelField);
}

async function showFirstIds(/** @type {string} */ id) {
  const selection = await blankSelectionOf(id).catch(() => undefined);
  if (id !== fileSelect.value) return;
  if (selection?.name === 'where') {
    fidInput.placeholder = '';
    whereInput.placeholder = selection.value;
    firstHint.textContent = `Left blank, with no filter: the features where ${selection.value}.`;
    return;
  }
  const ids = selection?.value.split(',') ?? [];
  fidInput.placeholder = ids.join(', ');
  whereInput.placeholder = "NAME LIKE 'N%'";
  firstHint.textContent =
    ids.length > 0 ? `Left blank, with no filter: the first ${ids.length} feature(s), ids ${ids[0]} to ${ids[ids.length - 1]}.` : `Shapefile ${id} has no feature with a shape to draw.`;
}

/**
 * What a form naming no features asks for: the sample choropleth's filter on the sample
 * countries, else the ids of the file's first features (`value` empty when it has none).
 * @returns {Promise<{ name: 'fid' | 'where', value: string }>}
 */
async function blankSelectionOf(/** @type {string} */ id) {
  const choropleth = choroplethFor(id, await fieldNamesOf(id));
  if (choropleth) return { name: 'where', value: choropleth.where };
  return { name: 'fid', value: (await firstIdsOf(id)).join(',') };
}

/** Whether the form names no features: the request then takes the file's first ones. */
function blankSelection() {
  return fidInput.value.trim() === '' && whereInput.value.trim() === '';
}

/** Options that do not apply are disabled, so the form (FormData) leaves them out of the request. */
function syncOptions() {
  const map = operation() === 'map';
  imagesOptions.disabled = map;
  mapOptions.disabled = !map;
  styleOptions.disabled = !map && themeSelect.value !== '';
  fillColorInput.disabled = map;
  const field = shownFields.find((candidate) => candidate.name === styleBySelect.value);
  const styled = field !== undefined;
  for (const control of [classifySelect, paletteSelect, reversePaletteInput]) control.disabled = !styled;
  // The default method is the field type's; categories take no class count.
  classifySelect.options[0].text = field ? `Default: ${defaultMethod(field.type)}` : 'Default';
  classesInput.disabled = !styled || (classifySelect.value || (field && defaultMethod(field.type))) === 'categories';
  // A legend needs classes: a field's, or the rules of a theme.
  legendSwitch.disabled = !styled && (map || themeSelect.value === '');
  legendPositionSelect.disabled = legendSwitch.disabled || !legendSwitch.checked;
  labelFieldSelect.disabled = !labelsSwitch.checked || labelFieldSelect.options.length === 0;
}

/** @returns {'images' | 'map' | 'tiles'} */
function operation() {
  const chosen = new FormData(form).get('operation');
  return chosen === 'map' || chosen === 'tiles' ? chosen : 'images';
}

/** The size asked for, in CSS pixels: the unit of the hot spots' coordinates. */
function requestedSize() {
  return { width: Number(element('width', HTMLInputElement).value), height: Number(element('height', HTMLInputElement).value) };
}

/** The form's parameters as the API names them, those left blank or turned off left out. */
function formEntries() {
  /** @type {[string, string][]} */
  const entries = [];
  new FormData(form).forEach((value, name) => {
    if (name !== 'operation' && typeof value === 'string' && value.trim() !== '') entries.push([name, value.trim()]);
  });
  return entries;
}

/**
 * The request the form describes, its parameters named as the API names them; a form that
 * names no features asks for the file's first ones. Every field goes under the pointer,
 * within the server's cap; `fieldsNote` says what the cap left out.
 * @param {{ width: number, height: number }} size
 */
async function requestFor(size) {
  const file = fileSelect.value;
  if (!file) throw new Error('Choose a shapefile first: the catalog above lists those this key may see.');
  const entries = formEntries();
  if (blankSelection()) {
    const selection = await blankSelectionOf(file);
    if (selection.value === '') throw new Error(`Shapefile ${file} has no feature with a shape to draw.`);
    // Right after `file`, where a reader of the URL looks for it.
    entries.splice(entries.findIndex(([name]) => name === 'file') + 1, 0, [selection.name, selection.value]);
  }
  const params = new URLSearchParams(entries);
  params.set('size', `${size.height},${size.width}`);
  const cap = await fieldCap;
  const fields = hotSpotFieldsWithin(await fieldNamesOf(file), cap);
  if (fields.asked.length > 0) params.set('hotSpotFields', fields.asked.join(','));
  const fieldsNote =
    fields.left > 0
      ? `Under the pointer: the first ${fields.asked.length} of the ${fields.asked.length + fields.left} fields, as the server takes at most ${cap} in hotSpotFields.`
      : '';
  // Commas are as good as %2C in a query and far easier to read in an id or field list.
  return { url: `${location.origin}/REST/v1/shapefiles/${operation()}?${params.toString().replaceAll('%2C', ',')}`, fieldsNote };
}

/**
 * Sends the form's request, once `prepared` is done, and shows its answer; a render already
 * under way is abandoned, so the last asked for is the one shown.
 */
async function render(prepared = Promise.resolve()) {
  rendering?.abort();
  if (operation() === 'tiles') {
    rendering = undefined;
    showResult('pan');
    await prepared;
    await showPan();
    return;
  }
  showResult('picture');
  const current = new AbortController();
  rendering = current;
  renderStatus.textContent = 'Rendering…';
  try {
    await prepared;
    if (current.signal.aborted) return;
    const size = requestedSize();
    const request = await requestFor(size);
    if (current.signal.aborted) return;
    requestUrlBox.textContent = request.url;
    copyButton.disabled = false;
    copyStatus.textContent = '';
    const response = await fetchWithKey(request.url, current.signal);
    const text = await response.text();
    if (current.signal.aborted) return;
    const envelope = readEnvelope(text, response.headers.get('Content-Type'));
    envelopeBox.textContent = envelope.text;
    showLegend(envelope.legend);
    showImages(envelope.images, size);
    fieldsNote.textContent = envelope.statusCode === 200 ? request.fieldsNote : '';
    renderStatus.textContent =
      envelope.statusCode === 200
        ? `${envelope.images.length} image(s), ${envelope.images.reduce((count, image) => count + image.hotSpots.length, 0)} hot spots.`
        : `${envelope.statusCode}: ${envelope.errorDetails}`;
  } catch (error) {
    if (!current.signal.aborted) renderStatus.textContent = `The request failed: ${messageOf(error)}`;
  }
}

/** The answer's legend beside the picture. */
function showLegend(/** @type {Legend | undefined} */ legend) {
  shownLegend = legend;
  fillLegend(legend, { panel: legendPanel, field: legendField, classes: legendClasses });
}

/**
 * A legend's panel: each class's colour, label and count; hidden for a legend that is not there.
 * @param {Legend | undefined} legend
 * @param {{ panel: HTMLElement, field: HTMLElement, classes: HTMLUListElement }} panel
 */
function fillLegend(legend, { panel, field, classes }) {
  panel.hidden = legend === undefined;
  field.textContent = legend ? (legend.Field === null ? `By the theme's rules.` : `${legend.Field}, by ${legend.Method}.`) : '';
  classes.replaceChildren(
    ...(legend?.Classes ?? []).map((entry) => {
      const item = document.createElement('li');
      item.dataset.color = entry.Color;
      item.append(swatch(entry.Color), Object.assign(document.createElement('span'), { className: 'label', textContent: entry.Label }));
      item.append(Object.assign(document.createElement('span'), { className: 'count', textContent: String(entry.Count) }));
      return item;
    }),
  );
}

/** A square of `colour`, drawn as SVG: the page's policy allows no inline style. */
function swatch(/** @type {string} */ colour) {
  const square = document.createElementNS(SVG, 'svg');
  square.setAttribute('class', 'swatch');
  // A size of its own (the stylesheet's .swatch overrides it): an SVG without one counts as 300 px wide wherever its box is sized by its content.
  square.setAttribute('width', '16');
  square.setAttribute('height', '16');
  square.setAttribute('aria-hidden', 'true');
  const fill = document.createElementNS(SVG, 'rect');
  fill.setAttribute('width', '100%');
  fill.setAttribute('height', '100%');
  fill.setAttribute('fill', colour);
  square.append(fill);
  return square;
}

/**
 * The palette on the chosen field's real classes, from the legend route (what the picture
 * will use); empty while no field is chosen. A newer choice abandons a preview under way.
 */
async function showPalettePreview() {
  previewing?.abort();
  const current = new AbortController();
  previewing = current;
  const file = fileSelect.value;
  delete palettePreview.dataset.legend;
  if (!file || !styleBySelect.value || styleBySelect.disabled) {
    palettePreview.replaceChildren();
    return;
  }
  const path = legendPreviewPath({
    file,
    styleBy: styleBySelect.value,
    classify: classifySelect.value,
    classes: classesInput.disabled ? '' : classesInput.value,
    palette: paletteSelect.value,
    reversePalette: reversePaletteInput.checked,
    where: whereInput.value.trim(),
  });
  try {
    const response = await fetchWithKey(path, current.signal);
    const answer = await response.json().catch(() => ({}));
    if (current.signal.aborted) return;
    /** @type {Legend | undefined} */
    const legend = answer.Resource?.Legend;
    if (!response.ok || !legend) throw new Error(answer.ErrorDetails ?? `${response.status} ${response.statusText}`);
    // Which request the swatches show, for a reader (or a test) to tell a stale preview from this one.
    palettePreview.dataset.legend = path;
    palettePreview.replaceChildren(
      ...legend.Classes.map((entry) => {
        const square = swatch(entry.Color);
        square.append(Object.assign(document.createElementNS(SVG, 'title'), { textContent: entry.Label }));
        return square;
      }),
    );
  } catch (error) {
    if (!current.signal.aborted) palettePreview.replaceChildren(Object.assign(document.createElement('span'), { className: 'hint', textContent: `No preview: ${messageOf(error)}` }));
  }
}

/** Each image with an HTML image map of its hot spots, and an SVG overlay that highlights them. */
function showImages(/** @type {FeatureImage[]} */ images, /** @type {{ width: number, height: number }} */ size) {
  imageUrls.forEach((url) => URL.revokeObjectURL(url));
  imageUrls = images.map((image) => URL.createObjectURL(new Blob([image.png], { type: 'image/png' })));
  hovered = undefined;
  selected.clear();
  shownAreas = [];
  imagesBox.replaceChildren(...images.map((image, index) => figureOf(image, imageUrls[index], index, size)));
  showHovered();
  showSelection();
}

function figureOf(
  /** @type {FeatureImage} */ image,
  /** @type {string} */ url,
  /** @type {number} */ index,
  /** @type {{ width: number, height: number }} */ { width, height },
) {
  const mapName = `hot-spots-${index + 1}`;
  // Hot-spot coordinates are CSS pixels of the requested size, so the image is shown at that size.
  const picture = Object.assign(document.createElement('img'), { src: url, width, height, useMap: `#${mapName}` });
  picture.alt = `Image ${index + 1} of ${fileSelect.value}${image.featureId >= 0 ? `, feature ${image.featureId}` : ''}`;
  const overlay = document.createElementNS(SVG, 'svg');
  overlay.setAttribute('class', 'overlay');
  overlay.setAttribute('viewBox', `0 0 ${width} ${height}`);
  overlay.setAttribute('aria-hidden', 'true');
  const map = Object.assign(document.createElement('map'), { name: mapName });
  map.append(...image.hotSpots.map(areaOf));
  shownAreas.push(...image.hotSpots.map((hotSpot) => ({ hotSpot, overlay })));
  const stage = Object.assign(document.createElement('div'), { className: 'stage' });
  stage.append(picture, overlay, map);
  const caption = Object.assign(document.createElement('figcaption'), {
    textContent: `Image ${image.itemId}${image.featureId >= 0 ? `: feature ${image.featureId}` : ''}, ${image.hotSpots.length} hot spots`,
  });
  const figure = document.createElement('figure');
  figure.append(stage, caption);
  return figure;
}

function areaOf(/** @type {HotSpot} */ hotSpot) {
  const area = Object.assign(document.createElement('area'), { shape: hotSpot.Shape, coords: hotSpot.Coords, href: '#', alt: describe(hotSpot) });
  area.addEventListener('mouseenter', () => hover(hotSpot));
  area.addEventListener('focus', () => hover(hotSpot));
  area.addEventListener('mouseleave', () => hover(undefined));
  area.addEventListener('blur', () => hover(undefined));
  area.addEventListener('click', (event) => {
    event.preventDefault();
    toggleSelected(hotSpot);
  });
  return area;
}

function describe(/** @type {HotSpot} */ hotSpot) {
  const values = Object.entries(hotSpot.Attributes ?? {}).map(([name, value]) => `${name} ${value}`);
  const ofClass = classOf(hotSpot, shownLegend);
  return [`Feature ${hotSpot.Fid}`, ...(ofClass ? [`class ${ofClass.Label}`] : []), ...values].join(', ');
}

function hover(/** @type {HotSpot | undefined} */ hotSpot) {
  hovered = hotSpot;
  showHovered();
  drawOverlays();
}

function toggleSelected(/** @type {HotSpot} */ hotSpot) {
  if (selected.has(hotSpot.Fid)) selected.delete(hotSpot.Fid);
  else selected.set(hotSpot.Fid, hotSpot);
  showSelection();
  drawOverlays();
}

/** Whether the map, rather than the picture, is shown: the panels below then speak of its features. */
const panShowing = () => !panView.hidden;

function showHovered() {
  const shown = panShowing() ? panHovered : hovered;
  if (!shown) {
    const hint = panShowing() ? 'Hover over a feature of the map.' : 'Hover over a feature, or Tab to it.';
    hoverInfo.replaceChildren(Object.assign(document.createElement('p'), { className: 'hint', textContent: hint }));
    return;
  }
  hoverInfo.replaceChildren(...classLine(shown), featureDetails(shown));
}

/** The feature's class in the legend (its colour and label), when the answer (or the map's style) has classes. */
function classLine(/** @type {HotSpot} */ hotSpot) {
  const ofClass = classOf(hotSpot, panShowing() ? panLegend : shownLegend);
  if (!ofClass) return [];
  const line = Object.assign(document.createElement('p'), { className: 'feature-class' });
  line.append(swatch(ofClass.Color), Object.assign(document.createElement('span'), { className: 'label', textContent: `Class: ${ofClass.Label}` }));
  return [line];
}

function showSelection() {
  const shown = panShowing() ? (panChosen ? [panChosen] : []) : [...selected.values()];
  selectionList.replaceChildren(
    ...shown.map((hotSpot) => {
      const item = document.createElement('li');
      item.append(...classLine(hotSpot), featureDetails(hotSpot));
      return item;
    }),
  );
}

/** A feature's ids and attributes as a description list (a map's feature has its fid alone: it is a whole record). */
function featureDetails(/** @type {HotSpot} */ hotSpot) {
  const list = document.createElement('dl');
  const rows = [
    ['Fid', hotSpot.Fid],
    ...(panShowing() ? [] : [['FeatureId', String(hotSpot.FeatureId)]]),
    ...Object.entries(hotSpot.Attributes ?? {}).map(([name, value]) => [name, value === null ? '(null)' : String(value)]),
  ];
  for (const [term, detail] of rows) {
    list.append(Object.assign(document.createElement('dt'), { textContent: term }), Object.assign(document.createElement('dd'), { textContent: detail }));
  }
  return list;
}

/** Every area of a hovered or selected feature (a feature has an area per polygon), drawn on its image's overlay. */
function drawOverlays() {
  imagesBox.querySelectorAll('svg.overlay').forEach((overlay) => overlay.replaceChildren());
  for (const { hotSpot, overlay } of shownAreas) {
    const classes = [hovered?.Fid === hotSpot.Fid ? 'hovered' : '', selected.has(hotSpot.Fid) ? 'selected' : ''].join(' ').trim();
    if (classes) overlay.append(shapeOf(hotSpot, classes));
  }
}

/** The SVG twin of an image-map area: the same shape, the same coordinates. */
function shapeOf(/** @type {HotSpot} */ hotSpot, /** @type {string} */ classes) {
  const numbers = hotSpot.Coords.split(',').map(Number);
  /** @type {SVGElement} */
  let shape;
  if (hotSpot.Shape === 'circle') {
    shape = document.createElementNS(SVG, 'circle');
    ['cx', 'cy', 'r'].forEach((name, index) => shape.setAttribute(name, String(numbers[index])));
  } else {
    // Our hot spots are circles (points) and polygons (everything else); no rect is made.
    shape = document.createElementNS(SVG, 'polygon');
    shape.setAttribute('points', numbers.join(' '));
  }
  shape.setAttribute('class', classes);
  shape.dataset.fid = hotSpot.Fid;
  return shape;
}

/** Copies the URL shown in `box`, and says so in `status`. */
async function copyUrl(/** @type {HTMLElement} */ box, /** @type {HTMLElement} */ status) {
  try {
    await navigator.clipboard.writeText(box.textContent ?? '');
    status.textContent = 'Copied.';
  } catch {
    // The clipboard needs a secure context (https or loopback): leave the URL selected to copy by hand.
    getSelection()?.selectAllChildren(box);
    status.textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
  }
}

/** Shows the picture or the map in the result; the panels below speak of what is shown. */
function showResult(/** @type {'picture' | 'pan'} */ shown) {
  const pan = shown === 'pan';
  if (panShowing() === pan) return;
  pictureView.hidden = pan;
  panView.hidden = !pan;
  showHovered();
  showSelection();
  // Hidden, its canvas had no size to follow.
  if (pan) panMap?.resize();
}

/**
 * The map of the form's layer, in the form's style, narrowed by its filter: a new style only
 * when it is another; opened on the layer's extent when the layer is another, else the view stays.
 */
async function showPan() {
  const file = fileSelect.value;
  if (!file) {
    panStatus.textContent = 'Choose a shapefile first: the catalog lists those this key may see.';
    return;
  }
  if (keyInput.value === '') {
    panStatus.textContent = NO_KEY;
    return;
  }
  const entries = formEntries();
  if (blankSelection()) {
    // The sample countries' first look leaves Antarctica out: so does their map.
    const selection = await blankSelectionOf(file).catch(() => undefined);
    if (selection?.name === 'where') entries.push(['where', selection.value]);
  }
  const names = await fieldNamesOf(file);
  const fields = names.slice(0, MOST_TILE_FIELDS);
  const url = styleUrl(file, entries, fields);
  // Another file was chosen, or another operation, meanwhile: that one's own call shows it.
  if (file !== fileSelect.value || operation() !== 'tiles') return;
  requestUrlBox.textContent = `${location.origin}${url}`;
  copyButton.disabled = false;
  copyStatus.textContent = '';
  fieldsNote.textContent =
    names.length > fields.length ? `Under the pointer: the first ${fields.length} of the ${names.length} fields, as the map's tiles carry at most ${MOST_TILE_FIELDS}.` : '';
  if (panShown?.url === url) {
    envelopeBox.textContent = panStyleText;
    return;
  }
  const another = panShown?.file !== file;
  panShown = { file, url };
  panProblem = undefined;
  panStatus.textContent = 'Loading the map…';
  panMap ??= new PanMap(panMapBox, {
    onStyle: showPanStyle,
    onHover: (feature) => {
      panHovered = feature && hotSpotOf(feature);
      showHovered();
    },
    onChoose: (feature) => {
      panChosen = feature && hotSpotOf(feature);
      showSelection();
      showViewUrl();
    },
    onView: (view) => {
      panViewShown = view;
      showViewUrl();
      // Like the picture's, a status in progress ends with an ellipsis: the map's tiles are on their way.
      panStatus.textContent = `${viewText(view)}; drawing…`;
    },
    onIdle: (view) => {
      panStatus.textContent = `${viewText(view)}.${panProblem ? ` Some of it could not be drawn: ${panProblem}` : ''}`;
    },
    onRefused: (message) => {
      panStatus.textContent = `The map failed: ${message}`;
    },
    // Said at the next idle, beside the view: the rest of the map is drawn.
    onProblem: (message) => {
      panProblem = message;
    },
    headers: () => ({ 'X-API-Key': keyInput.value }),
  });
  const shown = await panMap.show(url, another ? (openingBounds(collections.get(file)) ?? 'world') : undefined);
  // Refused (the status says why): the next Render asks again.
  if (!shown && panShown?.url === url) panShown = undefined;
}

/** Where the map is: its zoom (MapLibre's) and its centre. */
function viewText(/** @type {View} */ { zoom, center }) {
  const latitude = `${Math.abs(center.lat).toFixed(4)}°${center.lat < 0 ? 'S' : 'N'}`;
  const longitude = `${Math.abs(center.lng).toFixed(4)}°${center.lng < 0 ? 'W' : 'E'}`;
  return `Zoom ${zoom.toFixed(2)} at ${latitude}, ${longitude}`;
}

/** A new style on the map: its classes in the legend beside it, its picture's URL; nothing hovered or chosen. */
function showPanStyle(/** @type {MapStyle} */ style) {
  panStyleText = JSON.stringify(style, null, 2);
  envelopeBox.textContent = panStyleText;
  const metadata = style.metadata ?? {};
  panLegend = envelopeLegend(/** @type {any} */ (metadata['shapeshot:legend']));
  panMapUrl = typeof metadata['shapeshot:mapUrl'] === 'string' ? metadata['shapeshot:mapUrl'] : undefined;
  fillLegend(panLegend, { panel: panLegendPanel, field: panLegendField, classes: panLegendClasses });
  panHovered = undefined;
  panChosen = undefined;
  showHovered();
  showSelection();
  showViewUrl();
}

/** The URL of the picture of the map's view, as it is now. */
function showViewUrl() {
  const ready = panMapUrl !== undefined && panViewShown !== undefined;
  showViewPictureButton.disabled = !ready;
  copyViewUrlButton.disabled = !ready;
  viewPictureStatus.textContent = '';
  if (panMapUrl === undefined || panViewShown === undefined) return;
  viewUrlBox.textContent = viewPictureUrl(panMapUrl, { ...panViewShown, ...(panChosen ? { fid: panChosen.Fid } : {}) });
}

/** The picture of the view, asked for with the key in its header, shown under its URL. */
async function showViewPicture() {
  viewPicturing?.abort();
  const current = new AbortController();
  viewPicturing = current;
  const url = viewUrlBox.textContent ?? '';
  viewPictureStatus.textContent = 'Drawing…';
  try {
    const response = await fetchWithKey(url, current.signal);
    const bytes = await response.arrayBuffer();
    if (current.signal.aborted) return;
    if (!response.ok) {
      const refusal = readEnvelope(new TextDecoder().decode(bytes), response.headers.get('Content-Type'));
      throw new Error(`${response.status}: ${refusal.errorDetails || response.statusText}`);
    }
    if (viewPictureUrlShown) URL.revokeObjectURL(viewPictureUrlShown);
    viewPictureUrlShown = URL.createObjectURL(new Blob([bytes], { type: response.headers.get('Content-Type') ?? 'image/png' }));
    const picture = Object.assign(document.createElement('img'), { src: viewPictureUrlShown, alt: `The map operation's picture of ${new URL(url).searchParams.get('file')}` });
    viewPictureBox.replaceChildren(picture);
    const asked = new URL(url).searchParams;
    viewPictureStatus.textContent = `Drawn at zoom ${asked.get('zoom')}, ${asked.get('size')?.split(',').reverse().join(' × ')} px.`;
  } catch (error) {
    if (!current.signal.aborted) viewPictureStatus.textContent = `The picture failed: ${messageOf(error)}`;
  }
}

function messageOf(/** @type {unknown} */ error) {
  return error instanceof Error ? error.message : String(error);
}

/** The catalog with `preferred` chosen, then that file's first look. */
async function showCatalog(/** @type {string | null} */ preferred, opening = false) {
  if (await loadCatalog(preferred)) await showFile(opening);
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  render();
});
/** @type {Set<EventTarget>} the inputs that change the classes the palette preview shows */
const previewInputs = new Set([styleBySelect, classifySelect, classesInput, paletteSelect, reversePaletteInput, whereInput]);
form.addEventListener('change', (event) => {
  syncOptions();
  if (event.target && previewInputs.has(event.target)) showPalettePreview();
});
/** The shapefile the address names (/?file=NAME): the one shown first. */
const addressFile = () => new URLSearchParams(location.search).get('file');

fileSelect.addEventListener('change', () => {
  // The address names the file shown, so that a reload or a shared link opens it again.
  history.replaceState(null, '', `?${new URLSearchParams({ file: fileSelect.value })}`);
  showFile();
});
keyInput.addEventListener('change', () => {
  keepKey(keyInput.value);
  fieldsByCollection.clear();
  firstIdsByCollection.clear();
  keyStatus.textContent = '';
  if (keyInput.value === '') askForKey();
  // Nothing drawn yet (the page opened without a key): the page's first look.
  else showCatalog(fileSelect.value || addressFile(), imagesBox.childElementCount === 0);
});
copyButton.addEventListener('click', () => copyUrl(requestUrlBox, copyStatus));
copyViewUrlButton.addEventListener('click', () => copyUrl(viewUrlBox, viewPictureStatus));
showViewPictureButton.addEventListener('click', showViewPicture);

syncOptions();
loadThemes();
loadPalettes();
keyInput.value = openingKey();
if (keyInput.value === '') askForKey();
else showCatalog(addressFile(), true);
