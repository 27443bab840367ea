/**
 * A TopoJSON topology read with its arcs in one typed array. JSON.parse makes half a million
 * two-number arrays of world-atlas's 1:10m countries (400 ms of a cold first map, and 40 MB
 * held while the basemap decodes from it); the arcs here take 8 MB and a fraction of the time.
 * The rest of the file (objects, transform) is JSON.parse's. Rings and lines are decoded as
 * topojson-client decodes them, to the same numbers, for the shapes that are asked for only.
 */
import { FlatPartsBuilder, type FlatParts } from '../flat-parts.ts';
import { meshArcs } from 'topojson-client';
import type { GeometryObject, Topology } from 'topojson-specification';

export interface CompactTopology<Objects extends Topology['objects'] = Topology['objects']> {
  objects: Objects;
  transform: Topology['transform'];
  /** Every arc's positions (quantized deltas when there is a transform), x and y interleaved. */
  coordinates: Float64Array;
  /** Where arc i starts in `coordinates`, as a position index; one more entry marks the end. */
  arcStarts: Uint32Array;
}

/** A lon/lat box. */
export interface LonLatBox {
  west: number;
  south: number;
  east: number;
  north: number;
}

/**
 * Reads a topology file (UTF-8 bytes, scanned as bytes: no character of another script has a
 * byte that JSON's punctuation has); throws naming what it did not find where TopoJSON has it.
 */
export function readCompactTopology<Objects extends Topology['objects']>(text: Uint8Array): CompactTopology<Objects> {
  const arcsAt = topLevelValueStart(text, 'arcs');
  const { coordinates, arcStarts, end } = readArcs(text, arcsAt);
  const utf8 = new TextDecoder();
  const rest = JSON.parse(`${utf8.decode(text.subarray(0, arcsAt))}null${utf8.decode(text.subarray(end))}`) as Topology<Objects>;
  return { objects: rest.objects, transform: rest.transform, coordinates, arcStarts };
}

/** Where the value of a top-level member starts: the file is scanned, not parsed, up to it. */
function topLevelValueStart(text: Uint8Array, name: string): number {
  const key = new TextEncoder().encode(name);
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text[i];
    if (code === QUOTE) {
      const close = stringEnd(text, i);
      let after = close + 1;
      while (text[after] <= SPACE) after++;
      // A member's name, not a string value that happens to read the same.
      if (depth === 1 && text[after] === COLON && close - i - 1 === key.length && key.every((byte, k) => text[i + 1 + k] === byte)) {
        let value = after + 1;
        while (text[value] <= SPACE) value++;
        return value;
      }
      i = close;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth++;
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) depth--;
  }
  throw new Error(`not a TopoJSON topology: it has no top-level '${name}'`);
}

/** The index of the quote that ends the string whose opening quote is at `open`. */
function stringEnd(text: Uint8Array, open: number): number {
  for (let i = open + 1; i < text.length; i++) {
    const code = text[i];
    if (code === BACKSLASH) i++;
    else if (code === QUOTE) return i;
  }
  throw new Error('not a TopoJSON topology: a string does not end');
}

/** `[[[x, y], …], …]` from `start`, each arc a part of flat parts; `end` is just past its closing bracket. */
function readArcs(text: Uint8Array, start: number): { coordinates: Float64Array; arcStarts: Uint32Array; end: number } {
  // Every number takes a digit and a separator at least; most of world-atlas's take three bytes or more.
  const arcs = new FlatPartsBuilder(Math.ceil((text.length - start) / 6));
  let depth = 0;
  /** The position being read: its numbers so far, and the first of them. */
  let numbers = 0;
  let x = 0;
  let i = start;
  for (; i < text.length; i++) {
    const code = text[i];
    if (code === OPEN_BRACKET) {
      depth++;
      numbers = 0;
    } else if (code === CLOSE_BRACKET) {
      if (depth === 3) {
        if (numbers !== 2) throw new Error('not a TopoJSON topology of this kind: an arc position is not two numbers');
      }
      // Every arc is kept, even one without positions: arcs are named by their index.
      if (depth === 2) arcs.endPart(0);
      if (--depth === 0) break;
    } else if (code === MINUS || (code >= DIGIT_0 && code <= DIGIT_9)) {
      // Quantized arcs hold integers, read digit by digit; any other number, by Number().
      let end = code === MINUS ? i + 1 : i;
      let magnitude = 0;
      for (let digit = text[end] - DIGIT_0; digit >= 0 && digit <= 9; digit = text[end] - DIGIT_0) {
        magnitude = magnitude * 10 + digit;
        end++;
      }
      let value = code === MINUS ? -magnitude : magnitude;
      if (isNumberCharacter(text[end]) || magnitude > Number.MAX_SAFE_INTEGER) {
        while (isNumberCharacter(text[end])) end++;
        value = Number(new TextDecoder().decode(text.subarray(i, end)));
      }
      if (depth !== 3 || numbers === 2) throw new Error('not a TopoJSON topology of this kind: an arc position is not two numbers');
      if (numbers++ === 0) x = value;
      else arcs.push(x, value);
      i = end - 1;
    } else if (code !== COMMA && code > SPACE) {
      throw new Error(`not a TopoJSON topology: '${String.fromCharCode(code)}' where its arcs hold numbers`);
    }
  }
  if (depth !== 0) throw new Error('not a TopoJSON topology: its arcs do not end');
  const { xy, starts } = arcs.done();
  return { coordinates: xy, arcStarts: starts, end: i + 1 };
}

const QUOTE = 34;
const BACKSLASH = 92;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;
const SPACE = 32;
const MINUS = 45;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const COLON = 58;

/** A character a JSON number may have past its leading digits (undefined past the end). */
function isNumberCharacter(code: number | undefined): boolean {
  return code !== undefined && ((code >= DIGIT_0 && code <= DIGIT_9) || code === 46 || code === 101 || code === 69 || code === 43 || code === MINUS);
}

/**
 * The lines, or rings, each made of a list of `arcs` (TopoJSON indexes: ~i is arc i reversed),
 * as topojson-client makes them: arcs joined at their shared position, a ring padded to four
 * positions; as flat parts, one array of numbers rather than an array per position.
 */
export function decodeParts(topology: CompactTopology, parts: readonly (readonly number[])[], ring = false): FlatParts {
  const decoded = new FlatPartsBuilder();
  for (const arcs of parts) {
    const xy = partCoordinates(topology, arcs, ring);
    for (let i = 0; i < xy.length; i += 2) decoded.push(xy[i], xy[i + 1]);
    decoded.endPart();
  }
  return decoded.done();
}

function partCoordinates(topology: CompactTopology, arcs: readonly number[], ring: boolean): number[] {
  const xy: number[] = [];
  for (const arc of arcs) {
    // The joint: each arc starts where the one before it ends.
    if (xy.length > 0) xy.length -= 2;
    const from = xy.length;
    pushArc(topology, arc < 0 ? ~arc : arc, xy);
    if (arc < 0) reversePairs(xy, from);
  }
  if (xy.length < 4) xy.push(xy[0], xy[1]);
  if (ring) while (xy.length < 8) xy.push(xy[0], xy[1]);
  return xy;
}

function pushArc(topology: CompactTopology, index: number, xy: number[]): void {
  const { coordinates, arcStarts, transform } = topology;
  const first = arcStarts[index];
  const last = arcStarts[index + 1];
  if (transform === undefined) {
    for (let k = first; k < last; k++) xy.push(coordinates[2 * k], coordinates[2 * k + 1]);
    return;
  }
  const [kx, ky] = transform.scale;
  const [dx, dy] = transform.translate;
  let x = 0;
  let y = 0;
  // The very arithmetic of topojson-client's transform, so both give the same numbers.
  for (let k = first; k < last; k++) xy.push((x += coordinates[2 * k]) * kx + dx, (y += coordinates[2 * k + 1]) * ky + dy);
}

function reversePairs(xy: number[], from: number): void {
  for (let i = from, j = xy.length - 2; i < j; i += 2, j -= 2) {
    [xy[i], xy[j]] = [xy[j], xy[i]];
    [xy[i + 1], xy[j + 1]] = [xy[j + 1], xy[i + 1]];
  }
}

/** The lon/lat box of arcs, read without making their positions. */
export function arcsBox(topology: CompactTopology, arcs: Iterable<number>): LonLatBox {
  const box = { west: Infinity, south: Infinity, east: -Infinity, north: -Infinity };
  const { coordinates, arcStarts, transform } = topology;
  const [kx, ky] = transform?.scale ?? [1, 1];
  const [dx, dy] = transform?.translate ?? [0, 0];
  for (const arc of arcs) {
    const index = arc < 0 ? ~arc : arc;
    let x = 0;
    let y = 0;
    for (let k = arcStarts[index]; k < arcStarts[index + 1]; k++) {
      if (transform === undefined) [x, y] = [coordinates[2 * k], coordinates[2 * k + 1]];
      else [x, y] = [x + coordinates[2 * k], y + coordinates[2 * k + 1]];
      const lon = x * kx + dx;
      const lat = y * ky + dy;
      if (lon < box.west) box.west = lon;
      if (lon > box.east) box.east = lon;
      if (lat < box.south) box.south = lat;
      if (lat > box.north) box.north = lat;
    }
  }
  return box;
}

/**
 * The lines along the arcs of `object` that `shared` picks (topojson-client's mesh, say the
 * borders between countries), decoded as mesh decodes them. topojson-client joins the arcs into
 * lines; it is shown the arcs as arrays, each made when it reads it, so only the picked ones are.
 */
export function meshLines(
  topology: CompactTopology,
  object: GeometryObject,
  shared: (a: GeometryObject, b: GeometryObject) => boolean,
): FlatParts {
  const arcsAsRead = new Proxy([] as number[][][], {
    get: (target, key) => (typeof key === 'string' && /^\d+$/.test(key) ? arcPairs(topology, Number(key)) : Reflect.get(target, key)),
  });
  const { arcs } = meshArcs({ type: 'Topology', objects: {}, arcs: arcsAsRead, transform: topology.transform }, object, shared);
  return decodeParts(topology, arcs);
}

/** Arc `index` as TopoJSON writes it: [x, y] pairs (deltas when there is a transform). */
function arcPairs(topology: CompactTopology, index: number): number[][] {
  const pairs: number[][] = [];
  for (let k = topology.arcStarts[index]; k < topology.arcStarts[index + 1]; k++) pairs.push([topology.coordinates[2 * k], topology.coordinates[2 * k + 1]]);
  return pairs;
}
