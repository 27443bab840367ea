/**
 * The images operation's query (docs/api.md, "The images operation"): its fields, with the
 * defaults the API description shows (test/docs.test.ts holds that page's tables to them), and
 * the request the operation runs, a theme resolved into its style.
 */
import { z } from 'zod';
import type { DrawStyle } from '../svg/style.ts';
import { commonFields, readCommon, type RequestLimits } from './common.ts';
import { choiceParam, fidParam, IMAGE_FORMATS, nonNegativeNumberParam, switchParam, withDefault } from './fields.ts';
import { foldQueryNames } from './normalize.ts';
import { readStyleParams, resolveStyle, styleFields } from './style.ts';
import type { Theme } from './theme.ts';
import { readThematic, thematicFields } from './thematic.ts';

/** The images operation's query (names lower-cased), validated and with the style resolved. */
export function imagesQuerySchema(limits: RequestLimits, themes: ReadonlyMap<string, Theme>) {
  const themeNames = [...themes.values()].map((theme) => theme.name);
  const fields = {
    ...commonFields(limits),
    fid: fidParam(limits.maxIds).optional(),
    format: withDefault(choiceParam(IMAGE_FORMATS), 'xml'),
    singleimage: withDefault(switchParam(), 0),
    theme: choiceParam(themeNames).optional(),
    reducetol: withDefault(nonNegativeNumberParam(), 0),
  };
  const base = z.looseObject(fields).refine((query) => query.fid !== undefined || query.where !== undefined, {
    path: ['fid'],
    message: "or 'where' is required",
    // Named beside the other problems of the query, as a missing file is.
    when: () => true,
  });
  // The style and thematic parameters are read apart from the schema (only where they apply), but are the operation's all the same.
  const parameters = [...Object.keys(fields), ...Object.keys(styleFields), ...Object.keys(thematicFields)];
  return z.preprocess(foldQueryNames(parameters), base).transform((query, ctx) => {
    const common = readCommon(query, ctx);
    const theme = query.theme === undefined ? undefined : themes.get(query.theme.toLowerCase());
    const settings = theme ? theme.style : readStyleParams(query as Record<string, string>, ctx);
    const style: DrawStyle = resolveStyle(settings);
    return {
      ...common,
      /** With where=, narrowed to the features that match (operations/select.ts). */
      fids: query.fid,
      singleImage: query.singleimage ?? false,
      reduceTol: query.reducetol ?? 0,
      style,
      thematic: readThematic(query as Record<string, string>, ctx, theme, settings),
    };
  });
}

export type ImagesRequest = z.output<ReturnType<typeof imagesQuerySchema>>;
