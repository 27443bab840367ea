/**
 * The themes folder read at start-up (docs/configuration.md, "Themes"): synchronous and
 * throwing, so that a theme file that does not validate stops the server naming the file and
 * the field, rather than a request finding out (docs/decisions.md, "Themes").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Theme } from '../params/theme.ts';
import { resolveThemes, type ThemeSource } from './resolve-themes.ts';
import { parseThemeFile } from './theme-file.ts';

/**
 * Reads and validates every `*.json` in `dir` but JSON Schemas (`*.schema.json`, such as
 * the themes' theme.schema.json: no theme can be named so, names have no '.'). Meant for
 * start-up: it is synchronous and throws. Returns the themes by lower-case name. An
 * invalid file throws an Error whose message names the file and the field.
 */
export function loadThemes(dir: string): Map<string, Theme> {
  const fileNames = readdirSync(dir)
    .filter((fileName) => isThemeFileName(fileName.toLowerCase()))
    .sort();
  const sources = fileNames.map((fileName) => readThemeFile(join(dir, fileName), fileName));
  return resolveThemes(sources);
}

function isThemeFileName(lowerCaseName: string): boolean {
  return lowerCaseName.endsWith('.json') && !lowerCaseName.endsWith('.schema.json');
}

function readThemeFile(path: string, fileName: string): ThemeSource {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path}: not valid JSON: ${(error as Error).message}`);
  }
  const content = parseThemeFile(json, path);
  const expectedName = fileName.slice(0, -'.json'.length);
  if (content.name.toLowerCase() !== expectedName.toLowerCase()) {
    throw new Error(`${path}: field 'name': '${content.name}' must match the file name '${fileName}'`);
  }
  return { file: path, content };
}
