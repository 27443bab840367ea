/**
 * The bundled Noto Sans, parsed once per thread: labels and legends are measured with its
 * real metrics and drawn as its glyph outlines, so what was measured is what is drawn, in
 * resvg and in any browser that opens a format=svg answer, without loading a font file into
 * either. A plain file read and opentype.parse: the same on Node, Deno and Bun.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import opentype from 'opentype.js';

export const BUNDLED_FONT_FILE = createRequire(import.meta.url).resolve(
  '@expo-google-fonts/noto-sans/400Regular/NotoSans_400Regular.ttf',
);

export interface LoadedFont {
  font: opentype.Font;
  /** The file's bytes, for the tables opentype.js leaves unread (kerning.ts). */
  bytes: DataView;
}

let loaded: LoadedFont | undefined;

/** The font, parsed on first use (about 100 ms) and kept for the thread's life. */
export function bundledFont(): LoadedFont {
  if (!loaded) {
    const file = readFileSync(BUNDLED_FONT_FILE);
    const buffer = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength);
    loaded = { font: opentype.parse(buffer), bytes: new DataView(buffer) };
  }
  return loaded;
}
