import type { StyleSettings } from '../params/style.ts';
import type { Theme } from '../params/theme.ts';
import type { ThemeFile } from './theme-file.ts';

/** A validated theme file and the label its errors name it by (its path). */
export interface ThemeSource {
  file: string;
  content: ThemeFile;
}

/**
 * Merges each theme over the theme it extends (its own settings win) and indexes the
 * result by lower-case name. Throws, naming the file, on a duplicate name, an unknown
 * base or a cycle of bases.
 */
export function resolveThemes(sources: readonly ThemeSource[]): Map<string, Theme> {
  const sourcesByKey = new Map<string, ThemeSource>();
  for (const source of sources) {
    const key = source.content.name.toLowerCase();
    const earlier = sourcesByKey.get(key);
    if (earlier !== undefined) {
      throw new Error(`${source.file}: field 'name': theme '${source.content.name}' is also defined in ${earlier.file}`);
    }
    sourcesByKey.set(key, source);
  }

  const resolved = new Map<string, Theme>();
  const resolve = (source: ThemeSource, chain: readonly string[]): Theme => {
    const key = source.content.name.toLowerCase();
    const done = resolved.get(key);
    if (done !== undefined) return done;
    const { name, extends: baseName, ...settings } = source.content;
    let style: StyleSettings = settings;
    if (baseName !== undefined) {
      const base = sourcesByKey.get(baseName.toLowerCase());
      if (base === undefined) {
        throw new Error(`${source.file}: field 'extends': unknown theme '${baseName}'`);
      }
      const path = [...chain, source.content.name];
      if (path.some((link) => link.toLowerCase() === baseName.toLowerCase())) {
        throw new Error(`${source.file}: field 'extends': themes extend each other in a cycle: ${[...path, base.content.name].join(' -> ')}`);
      }
      style = { ...resolve(base, path).style, ...settings };
    }
    const theme = { name, style };
    resolved.set(key, theme);
    return theme;
  };

  for (const source of sources) resolve(source, []);
  return resolved;
}
