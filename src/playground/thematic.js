/**
 * The playground's thematic section, the parts that decide rather than draw: each field's
 * type as the picker shows it, the method the server takes by default for it, the legend
 * route's address for the palette preview, and a hot spot's class in the answer's legend.
 * Pure, like first-look.js: the page fetches and draws, these decide.
 */

/**
 * @typedef {{ name: string, type: FieldType }} Field
 * @typedef {'text' | 'number' | 'logical' | 'date'} FieldType
 * @typedef {import('./envelope.js').Legend} Legend
 * @typedef {import('./envelope.js').LegendClass} LegendClass
 * @typedef {import('./envelope.js').HotSpot} HotSpot
 */

/** The classification methods, as the `classify` parameter takes them. */
export const METHODS = ['categories', 'quantile', 'equal', 'jenks'];

/**
 * The fields of a collection's queryables (JSON Schema: `properties`, each with its type),
 * in the file's order, each with the type a `.dbf` user knows it by.
 * @param {{ properties?: Record<string, { type?: string, format?: string }> }} queryables
 * @returns {Field[]}
 */
export function fieldsOfQueryables(queryables) {
  return Object.entries(queryables.properties ?? {}).map(([name, schema]) => ({ name, type: fieldType(schema) }));
}

/** @returns {FieldType} */
function fieldType(/** @type {{ type?: string, format?: string }} */ schema) {
  if (schema.type === 'number' || schema.type === 'integer') return 'number';
  if (schema.type === 'boolean') return 'logical';
  if (schema.format === 'date' || schema.format === 'date-time') return 'date';
  return 'text';
}

/**
 * What the server classifies a field by when `classify` is left out (docs/decisions.md:
 * quantiles for numbers, categories for text, logical and date fields).
 * @param {FieldType} type
 */
export function defaultMethod(type) {
  return type === 'number' ? 'quantile' : 'categories';
}

/**
 * The legend route's address for what the thematic section describes, in JSON: its
 * classes' colours are the palette's preview, on the file's real classes.
 * @param {{ file: string, styleBy: string, classify?: string, classes?: string, palette?: string, reversePalette?: boolean, where?: string }} choice
 */
export function legendPreviewPath(choice) {
  const params = new URLSearchParams({ file: choice.file, styleBy: choice.styleBy });
  if (choice.where) params.set('where', choice.where);
  if (choice.classify) params.set('classify', choice.classify);
  if (choice.classes) params.set('classes', choice.classes);
  if (choice.palette) params.set('palette', choice.palette);
  if (choice.reversePalette) params.set('reversePalette', '1');
  params.set('format', 'json');
  return `/REST/v1/shapefiles/legend?${params}`;
}

/**
 * The legend's class of a hot spot (its `Class` is an index into the legend's classes);
 * undefined for an answer without classes.
 * @param {HotSpot} hotSpot
 * @param {Legend | undefined} legend
 * @returns {LegendClass | undefined}
 */
export function classOf(hotSpot, legend) {
  return hotSpot.Class === undefined ? undefined : legend?.Classes[hotSpot.Class];
}
