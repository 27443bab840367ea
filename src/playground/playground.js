/**
 * The playground's one script: the catalog from /ogc, the form turned into an images or
 * map request, and the answer shown as its images with live image maps, its hot spots
 * highlighted on an SVG overlay, and its envelope. No dependencies, no build step.
 */

/**
 * @typedef {{ FeatureId: number, Fid: string, Shape: string, Coords: string, Attributes?: Record<string, unknown> }} HotSpot
 * @typedef {{ itemId: number, featureId: number, png: Uint8Array<ArrayBuffer>, hotSpots: HotSpot[] }} FeatureImage
 * @typedef {{ statusCode: number, errorDetails: string, images: FeatureImage[], text: string }} Envelope
 * @typedef {{ id: string, title?: string, links?: { href: string, rel: string }[] }} Collection
 */

const SVG = 'http://www.w3.org/2000/svg';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const QUERYABLES_REL = 'http://www.opengis.net/def/rel/ogc/1.0/queryables';
/** Attributes shown per hot spot: a few fields say which feature it is; all of them would bloat the envelope. */
const MAX_HOT_SPOT_FIELDS = 4;

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
const fileSelect = element('file', HTMLSelectElement);
const catalogStatus = element('catalog-status', HTMLElement);
const fieldsHint = element('fields-hint', HTMLElement);
const imagesOptions = element('images-options', HTMLFieldSetElement);
const mapOptions = element('map-options', HTMLFieldSetElement);
const styleOptions = element('style-options', HTMLFieldSetElement);
const themeSelect = element('theme', HTMLSelectElement);
const fillColorInput = element('fill-color', HTMLInputElement);
const renderButton = element('render', HTMLButtonElement);
const renderStatus = element('render-status', HTMLElement);
const imagesBox = element('images', HTMLElement);
const hoverInfo = element('hover-info', HTMLElement);
const selectionList = element('selection', HTMLUListElement);
const requestUrlBox = element('request-url', HTMLElement);
const copyButton = element('copy-url', HTMLButtonElement);
const copyStatus = element('copy-status', HTMLElement);
const envelopeBox = element('envelope', HTMLElement);

/** @type {Map<string, Collection>} */
let collections = new Map();
/** @type {Map<string, Promise<string[]>>} the fields of each collection, asked for once */
const fieldsByCollection = new Map();
/** @type {HotSpot | undefined} */
let hovered;
/** @type {Map<string, HotSpot>} selected features by Fid */
const selected = new Map();
/** @type {{ hotSpot: HotSpot, overlay: SVGSVGElement }[]} every area shown, with the overlay of its image */
let shownAreas = [];
/** @type {string[]} blob: URLs of the images shown, released when they are replaced */
let imageUrls = [];

/** @param {string} path */
function fetchWithKey(path) {
  return fetch(path, { headers: { 'X-API-Key': keyInput.value } });
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

/** The themes this server has: the images operation's `theme` choices, from its API description. */
async function loadThemes() {
  try {
    const response = await fetch('/openapi.json');
    if (!response.ok) return;
    /** @type {{ paths: Record<string, { get: { parameters: { name: string, schema: { enum?: string[] } }[] } }> }} */
    const description = await response.json();
    const theme = description.paths['/REST/v1/shapefiles/images'].get.parameters.find((parameter) => parameter.name === 'theme');
    themeSelect.append(...(theme?.schema.enum ?? []).map((name) => new Option(name, name)));
  } catch {
    // Without the list the style parameters still work.
  }
}

async function loadCatalog() {
  catalogStatus.textContent = 'Loading the catalog…';
  fileSelect.replaceChildren();
  try {
    const response = await fetchWithKey('/ogc/collections');
    if (!response.ok) throw new Error(await failureOf(response));
    /** @type {{ collections: Collection[] }} */
    const catalog = await response.json();
    collections = new Map(catalog.collections.map((collection) => [collection.id, collection]));
    fileSelect.append(...catalog.collections.map((collection) => new Option(collection.title ?? collection.id, collection.id)));
    catalogStatus.textContent = `${catalog.collections.length} shapefiles this key may see.`;
    await showFields();
  } catch (error) {
    catalogStatus.textContent = `The catalog could not be read: ${messageOf(error)}`;
  }
}

/** The `.dbf` fields of a collection, from its queryables (OGC API – Features Part 3). */
function fieldsOf(/** @type {string} */ id) {
  let fields = fieldsByCollection.get(id);
  if (!fields) {
    const link = collections.get(id)?.links?.find((candidate) => candidate.rel === QUERYABLES_REL);
    fields = link
      ? fetchWithKey(link.href).then(async (response) => {
          if (!response.ok) throw new Error(await failureOf(response));
          return Object.keys((await response.json()).properties ?? {});
        })
      : Promise.resolve([]);
    fieldsByCollection.set(id, fields);
    // A failure is not kept: the next look asks again.
    fields.catch(() => fieldsByCollection.delete(id));
  }
  return fields;
}

async function showFields() {
  if (!fileSelect.value) return;
  try {
    const fields = await fieldsOf(fileSelect.value);
    fieldsHint.textContent = `Fields: ${fields.join(', ') || 'none'}.`;
  } catch (error) {
    fieldsHint.textContent = `Fields unavailable: ${messageOf(error)}`;
  }
}

/** Options that do not apply are disabled, so the form (FormData) leaves them out of the request. */
function syncOptions() {
  const map = operation() === 'map';
  imagesOptions.disabled = map;
  mapOptions.disabled = !map;
  styleOptions.disabled = !map && themeSelect.value !== '';
  fillColorInput.disabled = map;
}

function operation() {
  return new FormData(form).get('operation') === 'map' ? 'map' : 'images';
}

/** The size asked for, in CSS pixels: the unit of the hot spots' coordinates. */
function requestedSize() {
  return { width: Number(element('width', HTMLInputElement).value), height: Number(element('height', HTMLInputElement).value) };
}

/** The request the form describes: its parameters are named as the API names them. */
async function requestUrl(/** @type {{ width: number, height: number }} */ size) {
  const params = new URLSearchParams();
  new FormData(form).forEach((value, name) => {
    if (name !== 'operation' && typeof value === 'string' && value.trim() !== '') params.set(name, value.trim());
  });
  params.set('size', `${size.height},${size.width}`);
  const fields = await fieldsOf(params.get('file') ?? '').catch(() => []);
  if (fields.length > 0) params.set('hotSpotFields', fields.slice(0, MAX_HOT_SPOT_FIELDS).join(','));
  return `${location.origin}/REST/v1/shapefiles/${operation()}?${params}`;
}

async function render(/** @type {SubmitEvent} */ event) {
  event.preventDefault();
  // Disabled until the answer is in, which also stops the Enter key from submitting again.
  renderButton.disabled = true;
  renderStatus.textContent = 'Rendering…';
  try {
    const size = requestedSize();
    const url = await requestUrl(size);
    requestUrlBox.textContent = url;
    copyButton.disabled = false;
    copyStatus.textContent = '';
    const response = await fetchWithKey(url);
    const text = await response.text();
    const envelope = response.headers.get('Content-Type')?.includes('json') ? readJsonEnvelope(text) : readXmlEnvelope(text);
    envelopeBox.textContent = envelope.text;
    showImages(envelope.images, size);
    renderStatus.textContent =
      envelope.statusCode === 200
        ? `${envelope.images.length} image(s), ${envelope.images.reduce((count, image) => count + image.hotSpots.length, 0)} hot spots.`
        : `${envelope.statusCode}: ${envelope.errorDetails}`;
  } catch (error) {
    renderStatus.textContent = `The request failed: ${messageOf(error)}`;
  } finally {
    renderButton.disabled = false;
  }
}

/** @returns {Envelope} */
function readJsonEnvelope(/** @type {string} */ text) {
  const answer = JSON.parse(text);
  /** @type {FeatureImage[]} */
  const images = (answer.Resource?.ShapefileFeatureImages ?? []).map((/** @type {any} */ image) => ({
    itemId: image.ItemId,
    featureId: image.FeatureId,
    png: Uint8Array.from(image.FeatureImage),
    hotSpots: image.FeatureHotSpots ?? [],
  }));
  const shown = JSON.stringify(answer, (name, value) => (name === 'FeatureImage' ? `(${value.length} PNG bytes left out)` : value), 2);
  return { statusCode: answer.StatusCode, errorDetails: answer.ErrorDetails, images, text: shown };
}

/** @returns {Envelope} */
function readXmlEnvelope(/** @type {string} */ text) {
  const document = new DOMParser().parseFromString(text, 'application/xml');
  const root = document.documentElement;
  const images = Array.from(root.getElementsByTagNameNS('*', 'ShapefileFeatureImage')).map((image) => {
    const png = Uint8Array.from(atob(childText(image, 'FeatureImage')), (character) => character.charCodeAt(0));
    const hotSpots = Array.from(image.getElementsByTagNameNS('*', 'HotSpot')).map(readXmlHotSpot);
    return { itemId: Number(childText(image, 'ItemId')), featureId: Number(childText(image, 'FeatureId')), png, hotSpots };
  });
  return {
    statusCode: Number(childText(root, 'StatusCode')),
    errorDetails: childText(root, 'ErrorDetails'),
    images,
    text: indentXml(root, ''),
  };
}

/** @returns {HotSpot} */
function readXmlHotSpot(/** @type {Element} */ spot) {
  /** @type {HotSpot} */
  const hotSpot = {
    FeatureId: Number(childText(spot, 'FeatureId')),
    Fid: childText(spot, 'Fid'),
    Shape: childText(spot, 'Shape'),
    Coords: childText(spot, 'Coords'),
  };
  const attributes = Array.from(spot.getElementsByTagNameNS('*', 'Attribute'));
  if (attributes.length > 0) {
    hotSpot.Attributes = Object.fromEntries(
      attributes.map((attribute) => [attribute.getAttribute('Name') ?? '', attribute.getAttributeNS(XSI, 'nil') === 'true' ? null : attribute.textContent]),
    );
  }
  return hotSpot;
}

function childText(/** @type {Element} */ parent, /** @type {string} */ name) {
  return Array.from(parent.children).find((child) => child.localName === name)?.textContent ?? '';
}

/**
 * The XML envelope one element a line, the PNG's base64 left out.
 * @param {Element} node
 * @param {string} indent
 * @returns {string}
 */
function indentXml(node, indent) {
  const attributes = Array.from(node.attributes).map((attribute) => ` ${attribute.name}="${escapeXml(attribute.value)}"`).join('');
  const open = `${indent}<${node.tagName}${attributes}`;
  if (node.localName === 'FeatureImage') return `${open}>(${node.textContent?.length ?? 0} base64 characters left out)</${node.tagName}>`;
  if (node.children.length > 0) {
    const children = Array.from(node.children).map((child) => indentXml(child, `${indent}  `)).join('\n');
    return `${open}>\n${children}\n${indent}</${node.tagName}>`;
  }
  return node.textContent ? `${open}>${escapeXml(node.textContent)}</${node.tagName}>` : `${open}/>`;
}

function escapeXml(/** @type {string} */ text) {
  return text.replace(/[<>&"]/g, (character) => `&#${character.charCodeAt(0)};`);
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
  return [`Feature ${hotSpot.Fid}`, ...values].join(', ');
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

function showHovered() {
  if (!hovered) {
    hoverInfo.replaceChildren(Object.assign(document.createElement('p'), { className: 'hint', textContent: 'Hover over a feature, or Tab to it.' }));
    return;
  }
  hoverInfo.replaceChildren(featureDetails(hovered));
}

function showSelection() {
  selectionList.replaceChildren(
    ...[...selected.values()].map((hotSpot) => {
      const item = document.createElement('li');
      item.append(featureDetails(hotSpot));
      return item;
    }),
  );
}

/** A feature's ids and attributes as a description list. */
function featureDetails(/** @type {HotSpot} */ hotSpot) {
  const list = document.createElement('dl');
  const rows = [
    ['Fid', hotSpot.Fid],
    ['FeatureId', String(hotSpot.FeatureId)],
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

async function copyRequestUrl() {
  try {
    await navigator.clipboard.writeText(requestUrlBox.textContent ?? '');
    copyStatus.textContent = 'Copied.';
  } catch {
    // The clipboard needs a secure context (https or loopback): leave the URL selected to copy by hand.
    getSelection()?.selectAllChildren(requestUrlBox);
    copyStatus.textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
  }
}

function messageOf(/** @type {unknown} */ error) {
  return error instanceof Error ? error.message : String(error);
}

form.addEventListener('submit', render);
form.addEventListener('change', syncOptions);
fileSelect.addEventListener('change', showFields);
keyInput.addEventListener('change', () => {
  fieldsByCollection.clear();
  loadCatalog();
});
copyButton.addEventListener('click', copyRequestUrl);
syncOptions();
loadThemes();
loadCatalog();
