/**
 * The legend route's query (`/REST/v1/shapefiles/legend`, docs/decisions.md "Thematic styling"):
 * the colouring parameters of images and maps, with `where=` and `culture`, and the legend
 * alone in return, as WMS GetLegendGraphic answers it.
 */
import { z } from 'zod';
import { CULTURES } from '../plugin-contract/basemap-plugin.ts';
import { choiceParam, integerParam, MAX_SCALE, requiredText, switchParam, whereParam, withDefault } from './fields.ts';
import { foldQueryNames } from './normalize.ts';
import { colouringFields, readColouring } from './thematic.ts';
import type { Theme } from './theme.ts';

/** The legend as a picture (png, the default, for <img src>; svg), or in the envelope (json, xml). */
export const LEGEND_FORMATS = ['png', 'svg', 'json', 'xml'] as const;
export type LegendFormat = (typeof LEGEND_FORMATS)[number];

export function legendQuerySchema(themes: ReadonlyMap<string, Theme>) {
  const themeNames = [...themes.values()].map((theme) => theme.name);
  const fields = {
    file: requiredText('the name of a shapefile'),
    theme: choiceParam(themeNames).optional(),
    where: whereParam().optional(),
    culture: withDefault(choiceParam(CULTURES), 'English'),
    format: withDefault(choiceParam(LEGEND_FORMATS), 'png'),
    scale: withDefault(integerParam(1, MAX_SCALE), 1),
    nocache: withDefault(switchParam(), 0),
  };
  // The colouring parameters are read apart from the schema (only where they apply), but are the route's all the same.
  const parameters = [...Object.keys(fields), ...Object.keys(colouringFields)];
  return z.preprocess(foldQueryNames(parameters), z.looseObject(fields)).transform((query, ctx) => {
    const theme = query.theme === undefined ? undefined : themes.get(query.theme.toLowerCase());
    const colouring = readColouring(query as Record<string, string>, ctx, theme);
    if (!colouring) {
      ctx.addIssue({ code: 'custom', path: ['styleby'], message: "is required (or a theme with 'classify' or 'rules')" });
      return z.NEVER;
    }
    return {
      file: query.file,
      colouring,
      where: query.where,
      culture: query.culture ?? 'English',
      format: query.format ?? 'png',
      scale: query.scale ?? 1,
      noCache: query.nocache ?? false,
    };
  });
}

export type LegendRequest = z.output<ReturnType<typeof legendQuerySchema>>;
