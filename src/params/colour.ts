/**
 * Colour values as requests and theme files spell them: hex codes in the forms the
 * original .NET service and Bing Maps accept (alpha FIRST in eight-digit codes) and the
 * CSS named colours, which are the same set as .NET's KnownColor web colours.
 */
import colourNames from 'color-name';
import type { Rgba } from '../svg/style.ts';

const HEX_CODE = /^#?([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/**
 * Parses a colour: `#RRGGBB`, `RRGGBB`, `#RGB`, `RGB`, `#AARRGGBB`, `AARRGGBB` (alpha
 * first), or a CSS/.NET colour name (case-insensitive, `Transparent` included).
 * Surrounding spaces are ignored. Returns undefined for anything else.
 */
export function parseColour(text: string): Rgba | undefined {
  const trimmed = text.trim();
  const hex = HEX_CODE.exec(trimmed)?.[1];
  if (hex !== undefined) return parseHexDigits(hex);
  return namedColour(trimmed.toLowerCase());
}

function parseHexDigits(digits: string): Rgba {
  if (digits.length === 3) {
    const [r, g, b] = [...digits].map((digit) => parseInt(digit + digit, 16));
    return { r, g, b, a: 1 };
  }
  const value = parseInt(digits, 16);
  const alpha = digits.length === 8 ? Math.floor(value / 0x1000000) / 255 : 1;
  return { ...rgbOf(value & 0xffffff), a: alpha };
}

/** `name` lower-case: CSS Color Module Level 4's named colours (color-name), and 'transparent'. */
function namedColour(name: string): Rgba | undefined {
  if (name === 'transparent') return { r: 0, g: 0, b: 0, a: 0 };
  // An own key only: 'constructor' and the like are no colours.
  if (!Object.hasOwn(colourNames, name)) return undefined;
  const [r, g, b] = colourNames[name as keyof typeof colourNames];
  return { r, g, b, a: 1 };
}

function rgbOf(value: number): Omit<Rgba, 'a'> {
  return { r: (value >> 16) & 0xff, g: (value >> 8) & 0xff, b: value & 0xff };
}

/**
 * A colour as SVG paint: `#rrggbb` plus a separate opacity, because SVG 1.1 renderers
 * do not all accept eight-digit hex codes (and CSS would read them alpha-last).
 */
export function formatColour(colour: Rgba): { hex: string; opacity: number } {
  const hex = [colour.r, colour.g, colour.b]
    .map((channel) => Math.round(channel).toString(16).padStart(2, '0'))
    .join('');
  return { hex: `#${hex}`, opacity: colour.a };
}
