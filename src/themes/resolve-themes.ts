/**
 * Themes that extend others, merged once at start-up (docs/configuration.md, "Themes"): a
 * request looks up a finished theme, and a duplicate name, an unknown base or a cycle of bases
 * stops the start-up naming the file.
 */
import type { StyleSettings } from '../params/style.ts';
import type { Theme } from '../params/theme.ts';
import type { ThemeFile } from './theme-file.ts';

/** A validated theme file and the label its errors name it by (its path). */
export interface ThemeSource {
  file: string;
  content: ThemeFile;
}

/**
 * Merges each theme over the theme it extends (its own settings win; see extend) and indexes the
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
    const { name, extends: baseName, classify, rules, labels, ...settings } = source.content;
    const own: Theme = { name, style: settings, ...definedOnly({ classify, rules, labels }) };
    let theme = own;
    if (baseName !== undefined) {
      const base = sourcesByKey.get(baseName.toLowerCase());
      if (base === undefined) {
        throw new Error(`${source.file}: field 'extends': unknown theme '${baseName}'`);
      }
      const path = [...chain, source.content.name];
      if (path.some((link) => link.toLowerCase() === baseName.toLowerCase())) {
        throw new Error(`${source.file}: field 'extends': themes extend each other in a cycle: ${[...path, base.content.name].join(' -> ')}`);
      }
      theme = extend(resolve(base, path), own);
    }
    resolved.set(key, theme);
    return theme;
  };

  for (const source of sources) resolve(source, []);
  return resolved;
}

/**
 * `own` over `base`: style settings one by one; the colouring (classify or rules, which
 * exclude each other) and the labels wholesale, since half of one rule list or
 * classification merged with another's would style nothing anyone wrote.
 */
function extend(base: Theme, own: Theme): Theme {
  const style: StyleSettings = { ...base.style, ...own.style };
  const colouring = own.classify !== undefined || own.rules !== undefined ? own : base;
  return {
    name: own.name,
    style,
    ...definedOnly({ classify: colouring.classify, rules: colouring.rules, labels: own.labels ?? base.labels }),
  };
}

/** The entries that are set, so that a theme without thematic settings has no such keys. */
function definedOnly<T extends object>(settings: T): Partial<T> {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined)) as Partial<T>;
}
