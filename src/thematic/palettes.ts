/**
 * The colour schemes `palette=` names, as d3-scale-chromatic holds them: the ColorBrewer
 * schemes (discrete, one array per class count) and the perceptual ramps (viridis & co.,
 * interpolators only). Colours are d3's own, so a legend's colours equal the scheme's.
 */
import * as chromatic from 'd3-scale-chromatic';

type Interpolator = (t: number) => string;
type Scheme = { kind: 'categorical'; colours: readonly string[] } | { kind: 'ramp'; byCount: readonly (readonly string[] | undefined)[]; interpolate: Interpolator } | { kind: 'interpolated'; interpolate: Interpolator };

const SCHEMES = new Map<string, { name: string; scheme: Scheme }>();
for (const [key, value] of Object.entries(chromatic)) {
  const match = /^(scheme|interpolate)(.+)$/.exec(key);
  if (!match) continue;
  const name = match[2];
  const interpolate = (chromatic as unknown as Record<string, Interpolator | undefined>)[`interpolate${name}`];
  const scheme = (chromatic as unknown as Record<string, readonly unknown[]>)[`scheme${name}`];
  let entry: Scheme;
  if (scheme && typeof scheme[0] === 'string') entry = { kind: 'categorical', colours: scheme as readonly string[] };
  else if (scheme && interpolate) entry = { kind: 'ramp', byCount: scheme as readonly (readonly string[] | undefined)[], interpolate };
  else if (interpolate && value === interpolate) entry = { kind: 'interpolated', interpolate };
  else continue;
  SCHEMES.set(name.toLowerCase(), { name, scheme: entry });
}

/** Every palette name, as d3-scale-chromatic spells it ('YlOrRd', 'Set2', 'Viridis', …). */
export const PALETTE_NAMES: readonly string[] = [...SCHEMES.values()].map(({ name }) => name).sort();

/** The palette's canonical name for `text` in any letter case; undefined when there is none. */
export function paletteNamed(text: string): string | undefined {
  return SCHEMES.get(text.toLowerCase())?.name;
}

/** The default palette of numeric classes. */
export const DEFAULT_NUMERIC_PALETTE = 'YlOrRd';

/**
 * Categories without a palette: Set2's 8 colours, then Set3's 12, then Dark2's 8, so that the
 * default limits.maxCategories (24) gives every category a colour of its own (cycled past 28).
 */
const DEFAULT_CATEGORY_COLOURS = [...chromatic.schemeSet2, ...chromatic.schemeSet3, ...chromatic.schemeDark2];

/**
 * `count` colours (`#rrggbb`) of palette `name` (any letter case; undefined: the category
 * default) in class order: a categorical scheme's first colours, cycled when there are
 * more classes than colours; a ColorBrewer ramp's own scheme for that count where it has
 * one (3–9, or 3–11 for diverging ones; 2: the 3-class scheme's ends), else its interpolator at evenly spaced points,
 * as are the perceptual ramps. `reverse` reverses the order.
 */
export function paletteColours(name: string | undefined, count: number, reverse = false): string[] {
  const scheme = name === undefined ? undefined : SCHEMES.get(name.toLowerCase())?.scheme;
  if (name !== undefined && !scheme) throw new Error(`Unknown palette '${name}'`);
  let colours: string[];
  if (!scheme || scheme.kind === 'categorical') {
    const source = scheme?.colours ?? DEFAULT_CATEGORY_COLOURS;
    colours = Array.from({ length: count }, (_, i) => source[i % source.length]);
  } else if (scheme.kind === 'ramp' && scheme.byCount[count]) {
    colours = [...scheme.byCount[count]!];
  } else if (scheme.kind === 'ramp' && count === 2) {
    // The ends of the 3-class scheme: the interpolator's ends are near-white and near-black.
    const three = scheme.byCount[3]!;
    colours = [three[0], three[2]];
  } else {
    colours = Array.from({ length: count }, (_, i) => scheme.interpolate(count === 1 ? 0.5 : i / (count - 1)));
  }
  const hex = colours.map(toHex);
  return reverse ? hex.reverse() : hex;
}

/** d3's interpolators answer `rgb(r, g, b)` for some ramps; everything here is `#rrggbb`. */
function toHex(colour: string): string {
  if (colour.startsWith('#')) return colour.toLowerCase();
  const [r, g, b] = colour.match(/\d+/g)!.map(Number);
  return '#' + ((1 << 24) | (r << 16) | (g << 8) | b).toString(16).slice(1);
}
