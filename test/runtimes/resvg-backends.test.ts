import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadRasterizer, nativeRasterizer, wasmRasterizer } from '../../src/raster/resvg.js';

const NOTO_SANS = fileURLToPath(
  import.meta.resolve('@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf'),
);

/** What the drawing code asks of the rasterizer: fills with holes (both fill rules are resvg's), round joins, gradients, circles, text. */
const SVGS = {
  shapes:
    '<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120">' +
    '<defs><linearGradient id="g" gradientTransform="rotate(35 .5 .5)"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#00f"/></linearGradient></defs>' +
    '<rect width="160" height="120" fill="url(#g)"/>' +
    '<path d="M10 10L150 20L140 110L20 100ZM50 40L100 45L95 80L55 75Z" fill="#d3d3d3" fill-opacity="0.6" fill-rule="evenodd" stroke="#f00" stroke-width="3" stroke-linejoin="round"/>' +
    '<path d="M5 60C40 0 120 120 155 60" fill="none" stroke="#080" stroke-width="2.5" stroke-linecap="round"/>' +
    '<circle cx="80" cy="60" r="6.5" fill="#ff0" stroke="#000" stroke-width="1.5"/></svg>',
  text:
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40">' +
    '<text x="4" y="28" font-family="Noto Sans" font-size="18" fill="#333">© Natural Earth</text></svg>',
};

describe('resvg backends', () => {
  it('uses the native addon on Node, where it loads', async () => {
    expect((await loadRasterizer()).backend).toBe('native');
  });

  it.each(Object.entries(SVGS))('draw the same pixels natively and in WebAssembly (%s)', async (_, svg) => {
    const [native, wasm] = await Promise.all([nativeRasterizer(), wasmRasterizer()]);
    const font = { loadSystemFonts: false, fontFiles: [NOTO_SANS], defaultFontFamily: 'Noto Sans' };
    const a = native.render(svg, font);
    const b = wasm.render(svg, font);
    expect([b.width, b.height]).toEqual([a.width, a.height]);
    // Something was drawn (text included), so equality is not two blank canvases.
    expect(a.pixels.some((value, i) => i % 4 === 3 && value === 255)).toBe(true);
    expect(Buffer.from(b.pixels).equals(Buffer.from(a.pixels))).toBe(true);
  });
});
