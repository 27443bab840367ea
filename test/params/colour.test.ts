import { describe, expect, it } from 'vitest';
import { formatColour, parseColour } from '../../src/params/colour.ts';

describe('parseColour', () => {
  it('reads #RRGGBB and RRGGBB as opaque colours', () => {
    expect(parseColour('#FF8000')).toEqual({ r: 255, g: 128, b: 0, a: 1 });
    expect(parseColour('ff8000')).toEqual({ r: 255, g: 128, b: 0, a: 1 });
    expect(parseColour('#0a0B0c')).toEqual({ r: 10, g: 11, b: 12, a: 1 });
  });

  it('reads #RGB and RGB by doubling each digit', () => {
    expect(parseColour('#F80')).toEqual({ r: 255, g: 136, b: 0, a: 1 });
    expect(parseColour('abc')).toEqual({ r: 0xaa, g: 0xbb, b: 0xcc, a: 1 });
  });

  it('reads eight digits with the alpha first, as .NET and Bing Maps do', () => {
    expect(parseColour('#80FF0000')).toEqual({ r: 255, g: 0, b: 0, a: 128 / 255 });
    expect(parseColour('00112233')).toEqual({ r: 0x11, g: 0x22, b: 0x33, a: 0 });
    expect(parseColour('#FF112233')).toEqual({ r: 0x11, g: 0x22, b: 0x33, a: 1 });
    // Alpha-last (CSS) reading would give red 0x11 and alpha 0x33/255.
    expect(parseColour('#33112233')?.r).toBe(0x11);
    expect(parseColour('#33112233')?.a).toBeCloseTo(0x33 / 255);
  });

  it('reads CSS/.NET colour names in any case', () => {
    expect(parseColour('LightGray')).toEqual({ r: 211, g: 211, b: 211, a: 1 });
    expect(parseColour('lightgrey')).toEqual({ r: 211, g: 211, b: 211, a: 1 });
    expect(parseColour('ROYALBLUE')).toEqual({ r: 65, g: 105, b: 225, a: 1 });
    expect(parseColour('rebeccapurple')).toEqual({ r: 0x66, g: 0x33, b: 0x99, a: 1 });
    expect(parseColour('YellowGreen')).toEqual({ r: 0x9a, g: 0xcd, b: 0x32, a: 1 });
  });

  it('reads Transparent as fully transparent', () => {
    expect(parseColour('Transparent')).toEqual({ r: 0, g: 0, b: 0, a: 0 });
    expect(parseColour('TRANSPARENT')?.a).toBe(0);
  });

  it('ignores surrounding spaces', () => {
    expect(parseColour('  #FF0000 ')).toEqual({ r: 255, g: 0, b: 0, a: 1 });
    expect(parseColour(' red ')).toEqual({ r: 255, g: 0, b: 0, a: 1 });
  });

  it.each([
    '',
    '   ',
    '#',
    '#GGGGGG',
    '#12345',
    '1234567',
    '#123456789',
    '##FF0000',
    'notacolour',
    'light gray',
    '#red',
    'rgb(1,2,3)',
    '0xFF0000',
    '# FF0000',
    // Names of the name table's object, not of colours.
    'constructor',
    'toString',
    '__proto__',
  ])('rejects %j', (text) => {
    expect(parseColour(text)).toBeUndefined();
  });
});

describe('formatColour', () => {
  it('gives lower-case #rrggbb and the alpha as a separate opacity', () => {
    expect(formatColour({ r: 255, g: 8, b: 171, a: 0.5 })).toEqual({ hex: '#ff08ab', opacity: 0.5 });
    expect(formatColour({ r: 0, g: 0, b: 0, a: 1 })).toEqual({ hex: '#000000', opacity: 1 });
  });

  it('round-trips through parseColour', () => {
    const colour = parseColour('#40123456')!;
    const { hex, opacity } = formatColour(colour);
    expect(parseColour(hex)).toEqual({ ...colour, a: 1 });
    expect(opacity).toBeCloseTo(0x40 / 255);
  });
});
