/**
 * What the playground draws before anyone asks, so that a newcomer's first look is a
 * picture rather than a blank form: the shapefile the page's own address names (`?file=`,
 * as /ogc's HTML pages link to it), else the sample countries as a choropleth, else the
 * catalog's first; its first features, and under the pointer every field the server takes.
 * Pure: the page fetches, these decide.
 */

/** How many features the first look draws: OGC API – Features' own first page, well within every default limit. */
export const FIRST_FEATURES = 10;

/**
 * The collection named `wanted` (the page's `?file=`), matched case-insensitively as the
 * API matches `file=`; else the opening file (openingFile), with the name that matched none
 * in `unknown`.
 * @param {string | null} wanted
 * @param {readonly string[]} ids the catalog's collections, in its order
 * @returns {{ id: string | undefined, unknown?: string }}
 */
export function chosenFile(wanted, ids) {
  const name = wanted?.trim();
  if (!name) return { id: openingFile(ids) };
  const found = ids.find((id) => id.toLowerCase() === name.toLowerCase());
  return found === undefined ? { id: openingFile(ids), unknown: name } : { id: found };
}

/**
 * The ids of the features a page of /ogc items holds that have a shape to draw (a record
 * with a null shape is a 404 to the images operation).
 * @param {{ features?: { id?: unknown, geometry?: unknown }[] }} page
 * @returns {string[]}
 */
export function drawableIds(page) {
  return (page.features ?? []).filter((feature) => feature.geometry != null && feature.id != null).map((feature) => String(feature.id));
}

/**
 * The first record numbers of a file of `featureCount` features: the ids to try when /ogc
 * cannot list the features (a file whose CRS is unknown has no GeoJSON, but images draw it).
 * @param {number} featureCount
 * @returns {string[]}
 */
export function firstRecordIds(featureCount) {
  return Array.from({ length: Math.min(FIRST_FEATURES, Math.max(0, featureCount)) }, (_, index) => String(index));
}

/**
 * The most names the server takes in `hotSpotFields`, as its API description states it
 * ("… a comma-separated list of at most 50 field names."); undefined where it says none.
 * @param {unknown} description the parameter's description in /openapi.json
 * @returns {number | undefined}
 */
export function hotSpotFieldCap(description) {
  const stated = typeof description === 'string' ? /at most (\d+) field names/.exec(description) : null;
  return stated ? Number(stated[1]) : undefined;
}

/**
 * The fields to ask for under the pointer: all of them, within the server's cap; `left` is
 * how many the cap left out, for the page to say so.
 * @param {readonly string[]} fields
 * @param {number | undefined} cap
 * @returns {{ asked: string[], left: number }}
 */
export function hotSpotFieldsWithin(fields, cap) {
  const asked = cap === undefined ? [...fields] : fields.slice(0, cap);
  return { asked, left: fields.length - asked.length };
}

/**
 * The first look of the sample data (a fresh `npm start`): its countries as a choropleth,
 * a colour per region with names and a legend, the whole world but Antarctica (which Web
 * Mercator would stretch across the bottom of the picture): one image of some 240
 * features, its hot spots and answer well within the default limits.
 */
export const SAMPLE_CHOROPLETH = {
  file: 'countries',
  where: "REGION <> 'Antarctic'",
  styleBy: 'REGION',
  labelField: 'NAME',
  // Thin white borders between the colours, as a choropleth draws them.
  lineColor: '#ffffff',
  lineWidth: 1,
  // The South Pacific is empty; the bottom right would cover Australia.
  legendPosition: 'bottomleft',
};

/**
 * The sample choropleth when the file shown is the sample countries (by name, with the
 * fields it colours and labels by), else undefined: another file opens plainly.
 * @param {string} file
 * @param {readonly string[]} fieldNames
 * @returns {typeof SAMPLE_CHOROPLETH | undefined}
 */
export function choroplethFor(file, fieldNames) {
  const { styleBy, labelField } = SAMPLE_CHOROPLETH;
  const isSample = file === SAMPLE_CHOROPLETH.file && fieldNames.includes(styleBy) && fieldNames.includes(labelField);
  return isSample ? SAMPLE_CHOROPLETH : undefined;
}

/**
 * The file a page that names none opens with: the sample countries where the catalog holds
 * them (their choropleth is the first look), else the catalog's first.
 * @param {readonly string[]} ids
 */
export function openingFile(ids) {
  return ids.includes(SAMPLE_CHOROPLETH.file) ? SAMPLE_CHOROPLETH.file : ids[0];
}
