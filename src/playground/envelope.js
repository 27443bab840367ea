/**
 * The playground's reading of an images or map answer, JSON or XML: its status, its images
 * (PNG bytes and hot spots, with the attributes and class the server sent), the legend of a
 * styled answer, and its text as the page shows it, the PNG bytes left out. Apart from the
 * page's wiring, so that each format's reading is in one place.
 */

/**
 * @typedef {{ FeatureId: number, Fid: string, Shape: string, Coords: string, Attributes?: Record<string, unknown>, Class?: number }} HotSpot
 * @typedef {{ itemId: number, featureId: number, png: Uint8Array<ArrayBuffer>, hotSpots: HotSpot[] }} FeatureImage
 * @typedef {{ Label: string, Color: string, Min: number | null, Max: number | null, Value: unknown, Count: number }} LegendClass
 * @typedef {{ Field: string | null, Method: string, Classes: LegendClass[] }} Legend
 * @typedef {{ statusCode: number, errorDetails: string, images: FeatureImage[], legend: Legend | undefined, text: string }} Envelope
 */

const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

/**
 * The envelope in `text`, read as its content type says.
 * @param {string} text
 * @param {string | null} contentType
 * @returns {Envelope}
 */
export function readEnvelope(text, contentType) {
  return contentType?.includes('json') ? readJsonEnvelope(text) : readXmlEnvelope(text);
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
  return { statusCode: answer.StatusCode, errorDetails: answer.ErrorDetails, images, legend: answer.Resource?.Legend ?? undefined, text: shown };
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
    legend: readXmlLegend(root),
    text: indentXml(root, ''),
  };
}

/**
 * The Resource's Legend (`<Legend><Field/><Method/><Classes><LegendClass>…`), as the JSON
 * names it; undefined when the answer has none (no styleBy).
 * @returns {Legend | undefined}
 */
function readXmlLegend(/** @type {Element} */ root) {
  const resource = Array.from(root.children).find((child) => child.localName === 'Resource');
  const legend = resource && Array.from(resource.children).find((child) => child.localName === 'Legend');
  if (!legend) return undefined;
  const classes = Array.from(legend.getElementsByTagNameNS('*', 'LegendClass')).map((entry) => ({
    Label: childText(entry, 'Label'),
    Color: childText(entry, 'Color'),
    Min: numberOrNull(entry, 'Min'),
    Max: numberOrNull(entry, 'Max'),
    Value: isNil(entry, 'Value') ? null : childText(entry, 'Value'),
    Count: Number(childText(entry, 'Count')),
  }));
  return { Field: isNil(legend, 'Field') ? null : childText(legend, 'Field'), Method: childText(legend, 'Method'), Classes: classes };
}

function isNil(/** @type {Element} */ parent, /** @type {string} */ name) {
  const child = Array.from(parent.children).find((candidate) => candidate.localName === name);
  return !child || child.getAttributeNS(XSI, 'nil') === 'true';
}

function numberOrNull(/** @type {Element} */ parent, /** @type {string} */ name) {
  return isNil(parent, name) ? null : Number(childText(parent, name));
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
  if (Array.from(spot.children).some((child) => child.localName === 'Class')) hotSpot.Class = Number(childText(spot, 'Class'));
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
