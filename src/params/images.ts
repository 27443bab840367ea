import { z } from 'zod';
import type { DrawStyle } from '../svg/style.ts';
import type { Theme } from '../themes/theme.ts';
import { commonFields, readCommon, type RequestLimits } from './common.ts';
import { choiceParam, fidParam, nonNegativeNumberParam, switchParam } from './fields.ts';
import { foldQueryCase } from './normalize.ts';
import { readStyleParams, resolveStyle } from './style.ts';

/** The images operation's query (names lower-cased), validated and with the style resolved. */
export function imagesQuerySchema(limits: RequestLimits, themes: ReadonlyMap<string, Theme>) {
  const themeNames = [...themes.values()].map((theme) => theme.name);
  const base = z.looseObject({
    ...commonFields(limits),
    fid: fidParam(limits.maxIds).optional(),
    singleimage: switchParam().optional(),
    theme: choiceParam(themeNames).optional(),
    reducetol: nonNegativeNumberParam().optional(),
  });
  return z.preprocess(foldQueryCase, base).transform((query, ctx) => {
    const common = readCommon(query, ctx);
    if (query.fid === undefined && query.where === undefined) ctx.addIssue({ code: 'custom', path: ['fid'], message: "or 'where' is required" });
    const theme = query.theme === undefined ? undefined : themes.get(query.theme.toLowerCase());
    const style: DrawStyle = resolveStyle(
      theme ? theme.style : readStyleParams(query as Record<string, string>, ctx),
    );
    return {
      ...common,
      /** With where=, narrowed to the features that match (operations/select.ts). */
      fids: query.fid,
      singleImage: query.singleimage ?? false,
      reduceTol: query.reducetol ?? 0,
      style,
    };
  });
}

export type ImagesRequest = z.output<ReturnType<typeof imagesQuerySchema>>;
