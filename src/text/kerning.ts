/**
 * Pair kerning read from the font's GPOS table ourselves: opentype.js reads pair positioning
 * only when a lookup holds it directly, and Noto Sans keeps most of its kerning (A–V, T–o, …)
 * in extension lookups, which opentype.js skips, so texts measured narrower or wider than
 * resvg and browsers set them. Only what horizontal text needs: the x advance of the first
 * glyph of a pair, from the lookups of the `kern` features, formats 1 (glyph pairs) and 2
 * (class pairs), summed over lookups as the lookups apply one after the other.
 */
import { bundledFont } from './font.ts';

const GPOS_PAIR_ADJUSTMENT = 2;
const GPOS_EXTENSION = 9;
/** ValueFormat bits: XPlacement, YPlacement, XAdvance; the x advance sits after the ones set below it. */
const X_ADVANCE = 0x0004;

interface PairTable {
  view: DataView;
  /** Byte offset of the subtable in the file. */
  at: number;
}

let lookups: PairTable[][] | undefined;

/** Font units to add to `first`'s advance when `second` follows it. */
export function pairKerning(first: number, second: number): number {
  lookups ??= readKernLookups();
  let kerning = 0;
  for (const subtables of lookups) {
    for (const subtable of subtables) {
      const value = pairValue(subtable, first, second);
      if (value !== undefined) {
        kerning += value;
        break;
      }
    }
  }
  return kerning;
}

/** Each `kern` lookup's pair subtables, in the lookup list's order (the order they apply in). */
function readKernLookups(): PairTable[][] {
  const view = bundledFont().bytes;
  const gpos = tableOffset(view, 'GPOS');
  if (gpos === undefined) return [];
  const featureList = gpos + view.getUint16(gpos + 6);
  const lookupList = gpos + view.getUint16(gpos + 8);
  const kernLookups = new Set<number>();
  const featureCount = view.getUint16(featureList);
  for (let f = 0; f < featureCount; f++) {
    const record = featureList + 2 + 6 * f;
    if (tag(view, record) !== 'kern') continue;
    const feature = featureList + view.getUint16(record + 4);
    const count = view.getUint16(feature + 2);
    for (let l = 0; l < count; l++) kernLookups.add(view.getUint16(feature + 4 + 2 * l));
  }
  return [...kernLookups].sort((a, b) => a - b).map((index) => {
    const lookup = lookupList + view.getUint16(lookupList + 2 + 2 * index);
    const type = view.getUint16(lookup);
    const subtableCount = view.getUint16(lookup + 4);
    const subtables: PairTable[] = [];
    for (let s = 0; s < subtableCount; s++) {
      const at = lookup + view.getUint16(lookup + 6 + 2 * s);
      if (type === GPOS_PAIR_ADJUSTMENT) subtables.push({ view, at });
      else if (type === GPOS_EXTENSION && view.getUint16(at + 2) === GPOS_PAIR_ADJUSTMENT) {
        subtables.push({ view, at: at + view.getUint32(at + 4) });
      }
    }
    return subtables;
  });
}

/** The x advance this subtable gives the pair; undefined when it does not cover the first glyph. */
function pairValue({ view, at }: PairTable, first: number, second: number): number | undefined {
  const format = view.getUint16(at);
  const coverage = coverageIndex(view, at + view.getUint16(at + 2), first);
  if (coverage < 0) return undefined;
  const format1 = view.getUint16(at + 4);
  const format2 = view.getUint16(at + 6);
  const advanceAt = (format1 & X_ADVANCE) === 0 ? -1 : 2 * bitsSet(format1 & (X_ADVANCE - 1));
  const recordBytes = 2 * (bitsSet(format1) + bitsSet(format2));
  if (format === 1) {
    const pairSet = at + view.getUint16(at + 10 + 2 * coverage);
    const count = view.getUint16(pairSet);
    const pairBytes = 2 + recordBytes;
    let low = 0;
    let high = count - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const record = pairSet + 2 + middle * pairBytes;
      const glyph = view.getUint16(record);
      if (glyph === second) return advanceAt < 0 ? 0 : view.getInt16(record + 2 + advanceAt);
      if (glyph < second) low = middle + 1;
      else high = middle - 1;
    }
    // Not listed: the next subtable may hold the pair.
    return undefined;
  }
  if (format === 2) {
    const class1 = classOf(view, at + view.getUint16(at + 8), first);
    const class2 = classOf(view, at + view.getUint16(at + 10), second);
    const class2Count = view.getUint16(at + 14);
    if (advanceAt < 0) return 0;
    return view.getInt16(at + 16 + (class1 * class2Count + class2) * recordBytes + advanceAt);
  }
  return undefined;
}

function coverageIndex(view: DataView, at: number, glyph: number): number {
  const format = view.getUint16(at);
  const count = view.getUint16(at + 2);
  let low = 0;
  let high = count - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (format === 1) {
      const listed = view.getUint16(at + 4 + 2 * middle);
      if (listed === glyph) return middle;
      if (listed < glyph) low = middle + 1;
      else high = middle - 1;
    } else {
      const range = at + 4 + 6 * middle;
      if (glyph < view.getUint16(range)) high = middle - 1;
      else if (glyph > view.getUint16(range + 2)) low = middle + 1;
      else return view.getUint16(range + 4) + glyph - view.getUint16(range);
    }
  }
  return -1;
}

/** A glyph's class in a ClassDef table; 0, the default class, when not listed. */
function classOf(view: DataView, at: number, glyph: number): number {
  const format = view.getUint16(at);
  if (format === 1) {
    const start = view.getUint16(at + 2);
    const count = view.getUint16(at + 4);
    return glyph >= start && glyph < start + count ? view.getUint16(at + 6 + 2 * (glyph - start)) : 0;
  }
  const count = view.getUint16(at + 2);
  let low = 0;
  let high = count - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const range = at + 4 + 6 * middle;
    if (glyph < view.getUint16(range)) high = middle - 1;
    else if (glyph > view.getUint16(range + 2)) low = middle + 1;
    else return view.getUint16(range + 4);
  }
  return 0;
}

function tableOffset(view: DataView, wanted: string): number | undefined {
  const count = view.getUint16(4);
  for (let t = 0; t < count; t++) {
    const record = 12 + 16 * t;
    if (tag(view, record) === wanted) return view.getUint32(record + 8);
  }
  return undefined;
}

function tag(view: DataView, at: number): string {
  return String.fromCharCode(view.getUint8(at), view.getUint8(at + 1), view.getUint8(at + 2), view.getUint8(at + 3));
}

function bitsSet(value: number): number {
  let count = 0;
  for (let bits = value; bits !== 0; bits &= bits - 1) count++;
  return count;
}
