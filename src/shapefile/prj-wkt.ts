/**
 * What proj4js misreads in the WKT of `.prj` files (ESRI's, and OGC's WKT 1), put right
 * before it reads them. Found by comparing its reading of the `.prj` files GDAL writes with
 * GDAL's reading (test/fixtures/prj, scripts/gdal-reference/prj.py):
 * - The WKT names a datum but leaves out its shift to WGS 84, which PROJ looks up in the
 *   EPSG database: BD72 (Belgian Lambert 72) landed 190 m from where GDAL puts it, ED50
 *   170 m, GGRS87 330 m, Tokyo 460 m. DATUM_SHIFTS holds the Helmert transformation PROJ
 *   uses for each (not for datums whose shift differs by country, such as Pulkovo 1942).
 * - ESRI's Stereographic_North_Pole is read as an oblique stereographic (EPSG:3413, the
 *   NSIDC's Arctic grid, 2,000 km off).
 * - A projection's angles in grads (NTF (Paris) / Lambert zone II, EPSG:27572: 580 km off)
 *   are read as degrees.
 */

export type PrjReading = { wkt: string } | { problem: string };

/**
 * The Helmert transformation PROJ uses over most of each datum's area, as +towgs84
 * (position-vector convention), and the datum's names as ESRI (D_…) and OGC spell them, in
 * lower case without ESRI's `d_`. PROJ chooses per place, and a grid where one is installed
 * (DHDN, NTF, NAD27): the corpus test names how far from it these land.
 */
const DATUMS: readonly { names: readonly string[]; towgs84: string }[] = [
  // EPSG:15929
  { names: ['belge_1972', 'reseau_national_belge_1972'], towgs84: '-106.8686,52.2978,-103.7239,0.3366,-0.457,1.8422,-1.2747' },
  // EPSG:1777
  { names: ['deutsches_hauptdreiecksnetz'], towgs84: '598.1,73.7,418.2,0.202,0.045,-2.455,6.7' },
  // EPSG:1133
  { names: ['european_1950', 'european_datum_1950'], towgs84: '-87,-98,-121,0,0,0,0' },
  // EPSG:1272
  { names: ['ggrs_1987', 'greek_geodetic_reference_system_1987'], towgs84: '-199.87,74.79,246.62,0,0,0,0' },
  // EPSG:1660
  { names: ['monte_mario'], towgs84: '-104.1,-49.1,-9.9,0.971,-2.917,0.714,-11.68' },
  // EPSG:1193
  { names: ['ntf', 'nouvelle_triangulation_francaise', 'nouvelle_triangulation_francaise_paris'], towgs84: '-168,-60,320,0,0,0,0' },
  // EPSG:5239, Czechia's (PROJ uses another in Slovakia)
  { names: ['s_jtsk', 'system_of_the_unified_trigonometrical_cadastral_network'], towgs84: '572.213,85.334,461.94,4.9732,1.529,5.2484,3.5378' },
  // EPSG:1173, the contiguous United States'
  { names: ['north_american_1927', 'north_american_datum_1927'], towgs84: '-8,160,176,0,0,0,0' },
  // EPSG:1242
  { names: ['hungarian_1972', 'hungarian_datum_1972'], towgs84: '52.17,-71.82,-14.9,0,0,0,0' },
  // EPSG:15484, Japan's
  { names: ['tokyo'], towgs84: '-146.414,507.337,680.507,0,0,0,0' },
  // EPSG:9676
  { names: ['israel', 'israel_1993'], towgs84: '23.772,17.49,17.859,-0.3132,-1.85274,1.67299,-5.4262' },
  // EPSG:1128
  { names: ['cape'], towgs84: '-136,-108,-292,0,0,0,0' },
];

const DATUM_SHIFTS: ReadonlyMap<string, string> = new Map(DATUMS.flatMap(({ names, towgs84 }) => names.map((name) => [name, towgs84] as const)));

const RADIANS_PER_DEGREE = Math.PI / 180;
const DEGREE_UNIT = `UNIT["Degree",${RADIANS_PER_DEGREE}]`;
/** Parameters that are angles (ESRI's and OGC's names): given in the geographic CRS's unit. */
const ANGULAR_PARAMETER = /meridian|parallel|latitude|longitude|azimuth/i;

interface WktNode {
  keyword: string;
  start: number;
  /** Where its bracket opens and closes. */
  open: number;
  close: number;
}

interface Edit {
  from: number;
  to: number;
  text: string;
}

/** `wkt` as proj4js reads the CRS GDAL reads from it, or why it cannot be read so. */
export function prjWktForProj4(wkt: string): PrjReading {
  const [root] = nodesIn(wkt, 0, wkt.length);
  if (!root || (root.keyword !== 'PROJCS' && root.keyword !== 'GEOGCS')) return { wkt };
  const geographic = root.keyword === 'GEOGCS' ? root : childNamed(wkt, root, 'GEOGCS');
  const edits: Edit[] = [];

  const datum = geographic && childNamed(wkt, geographic, 'DATUM');
  if (datum && !childNamed(wkt, datum, 'TOWGS84')) {
    const shift = DATUM_SHIFTS.get(leadingValues(wkt, datum)[0]?.toLowerCase().replace(/^d_/, '') ?? '');
    if (shift) edits.push({ from: datum.close, to: datum.close, text: `,TOWGS84[${shift}]` });
  }

  const unit = geographic && childNamed(wkt, geographic, 'UNIT');
  const [unitName, unitRadians] = unit ? leadingValues(wkt, unit) : [];
  const degreesPerUnit = Number(unitRadians) / RADIANS_PER_DEGREE;
  if (unit && Number.isFinite(degreesPerUnit) && degreesPerUnit > 0 && Math.abs(degreesPerUnit - 1) > 1e-9) {
    // proj4js takes a lon/lat CRS's coordinates as degrees whatever its unit.
    if (root === geographic) return { problem: `its angles are in ${unitName}, which proj4 would take for degrees.` };
    edits.push({ from: unit.start, to: unit.close + 1, text: DEGREE_UNIT });
    for (const parameter of nodesIn(wkt, root.open + 1, root.close).filter(({ keyword }) => keyword === 'PARAMETER')) {
      const [name, value] = leadingValues(wkt, parameter);
      if (ANGULAR_PARAMETER.test(name ?? '')) edits.push(valueEdit(wkt, parameter, String(Number(value) * degreesPerUnit)));
    }
  }

  const projection = root !== geographic ? childNamed(wkt, root, 'PROJECTION') : undefined;
  if (projection && leadingValues(wkt, projection)[0]?.toLowerCase() === 'stereographic_north_pole') {
    // wkt-parser reads Stereographic_South_Pole as the polar stereographic of whichever pole
    // Standard_Parallel_1 lies towards, which is what ESRI means by either name.
    edits.push({ from: projection.open + 1, to: projection.close, text: '"Stereographic_South_Pole"' });
  }

  return { wkt: applyEdits(wkt, edits) };
}

function applyEdits(wkt: string, edits: Edit[]): string {
  let result = wkt;
  for (const { from, to, text } of [...edits].sort((a, b) => b.from - a.from)) result = result.slice(0, from) + text + result.slice(to);
  return result;
}

/** An edit putting `value` in place of the node's second leading value (a PARAMETER's number). */
function valueEdit(wkt: string, node: WktNode, value: string): Edit {
  const body = wkt.slice(node.open + 1, node.close);
  const comma = body.search(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/);
  const rest = body.slice(comma + 1);
  const length = /^\s*[-+0-9.eE]+/.exec(rest)?.[0].length ?? 0;
  const from = node.open + 2 + comma;
  return { from, to: from + length, text: value };
}

function childNamed(wkt: string, parent: WktNode, keyword: string): WktNode | undefined {
  return nodesIn(wkt, parent.open + 1, parent.close).find((node) => node.keyword === keyword);
}

/** A node's values before its first child node: `"degree",0.0174532925199433` → ['degree', '0.0174532925199433']. */
function leadingValues(wkt: string, node: WktNode): string[] {
  const firstChild = nodesIn(wkt, node.open + 1, node.close)[0];
  const text = wkt.slice(node.open + 1, firstChild ? firstChild.start : node.close);
  return [...text.matchAll(/"((?:[^"]|"")*)"|([^,\s"]+)/g)].map((match) => match[1]?.replace(/""/g, '"') ?? match[2]);
}

/** The nodes (KEYWORD[…] or KEYWORD(…)) directly within wkt[from, to), quoted text skipped. */
function nodesIn(wkt: string, from: number, to: number): WktNode[] {
  const nodes: WktNode[] = [];
  let at = from;
  while (at < to) {
    if (wkt[at] === '"') {
      at = endOfQuote(wkt, at);
      continue;
    }
    const keyword = /^[A-Za-z_][A-Za-z0-9_]*\s*[[(]/.exec(wkt.slice(at, Math.min(to, at + 64)));
    if (!keyword) {
      at++;
      continue;
    }
    const open = at + keyword[0].length - 1;
    const close = matchingClose(wkt, open, to);
    if (close < 0) break;
    nodes.push({ keyword: keyword[0].replace(/\s*[[(]$/, '').toUpperCase(), start: at, open, close });
    at = close + 1;
  }
  return nodes;
}

function matchingClose(wkt: string, open: number, to: number): number {
  let depth = 0;
  for (let at = open; at < to; at++) {
    const char = wkt[at];
    if (char === '"') at = endOfQuote(wkt, at) - 1;
    else if (char === '[' || char === '(') depth++;
    else if ((char === ']' || char === ')') && --depth === 0) return at;
  }
  return -1;
}

/** Just past the quote that closes the one at `at` (a doubled quote is a quote within). */
function endOfQuote(wkt: string, at: number): number {
  let next = at + 1;
  for (;;) {
    const quote = wkt.indexOf('"', next);
    if (quote < 0) return wkt.length;
    if (wkt[quote + 1] !== '"') return quote + 1;
    next = quote + 2;
  }
}
