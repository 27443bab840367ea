/**
 * Writes the JSON Schema of theme files, generated from the zod schema in
 * src/themes/theme-file.ts, to themes/theme.schema.json (or the file given as the first
 * argument). Run with `npm run theme-schema` after changing the theme format.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUNDLED_THEMES_DIR } from '../src/config/package-folders.ts';
import { THEME_SCHEMA_FILE_NAME, themeJsonSchemaText } from '../src/themes/theme-json-schema.ts';

const target = process.argv[2] === undefined ? join(BUNDLED_THEMES_DIR, THEME_SCHEMA_FILE_NAME) : resolve(process.argv[2]);
writeFileSync(target, themeJsonSchemaText());
console.log(`Wrote ${target}`);
