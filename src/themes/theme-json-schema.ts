/**
 * The JSON Schema of theme files, generated from the zod schema that validates them
 * (themeFileSchema). `npm run theme-schema` writes it to themes/theme.schema.json.
 */
import { z } from 'zod';
import { themeFileSchema } from './theme-file.ts';

/** The file name the themes' `"$schema"` refers to; the loader does not read it as a theme. */
export const THEME_SCHEMA_FILE_NAME = 'theme.schema.json';

/** Identifies the schema; a URN because the service has no home page to put it under. */
export const THEME_SCHEMA_ID = 'urn:shapeshot:theme';

/**
 * The JSON Schema (draft 2020-12) of what a theme file may contain: the zod schema's
 * input side, since files hold colours as text and grid as 0/1, before parsing.
 */
export function themeJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(themeFileSchema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'throw',
  });
  return { $schema, $id: THEME_SCHEMA_ID, ...rest };
}

/** themes/theme.schema.json's content: the schema as pretty JSON with a final newline. */
export function themeJsonSchemaText(): string {
  return `${JSON.stringify(themeJsonSchema(), null, 2)}\n`;
}
