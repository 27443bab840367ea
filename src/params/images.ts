import { z } from 'zod';
import type { DrawStyle } from '../svg/style.ts';
import type { Theme } from '../themes/theme.ts';
import {
  choiceParam,
  fidParam,
  FORMATS,
  integerParam,
  nonNegativeNumberParam,
  requiredText,
  sizeParam,
  switchParam,
  type ImageSize,
} from './fields.ts';
import { foldQueryCase } from './normalize.ts';
import { readStyleParams, resolveStyle } from './style.ts';

export interface ImagesLimits {
  maxSize: number;
  maxIds: number;
}

/** The images operation's query (names lower-cased), validated and with the style resolved. */
export function imagesQuerySchema(limits: ImagesLimits, themes: ReadonlyMap<string, Theme>) {
  const themeNames = [...themes.values()].map((theme) => theme.name);
  const base = z.looseObject({
    file: requiredText('the name of a shapefile'),
    fid: fidParam(limits.maxIds),
    size: sizeParam(limits.maxSize).optional(),
    buffer: integerParam(0).optional(),
    singleimage: switchParam().optional(),
    includehotspots: switchParam().optional(),
    theme: choiceParam(themeNames).optional(),
    reducetol: nonNegativeNumberParam().optional(),
    nocache: switchParam().optional(),
    format: choiceParam(FORMATS).optional(),
  });
  return z.preprocess(foldQueryCase, base).transform((query, ctx) => {
    const size: ImageSize = query.size ?? { height: 480, width: 640 };
    const buffer = query.buffer ?? defaultBuffer(size);
    checkBuffer(buffer, size, ctx);
    const theme = query.theme === undefined ? undefined : themes.get(query.theme.toLowerCase());
    const style: DrawStyle = resolveStyle(
      theme ? theme.style : readStyleParams(query as Record<string, string>, ctx),
    );
    return {
      file: query.file,
      fids: query.fid,
      size,
      buffer,
      singleImage: query.singleimage ?? false,
      includeHotSpots: query.includehotspots ?? false,
      reduceTol: query.reducetol ?? 0,
      noCache: query.nocache ?? false,
      format: query.format ?? 'xml',
      style,
    };
  });
}

export type ImagesRequest = z.output<ReturnType<typeof imagesQuerySchema>>;

/** The largest buffer that leaves a pixel to draw in: less than half the smaller side. */
const maxBuffer = (size: ImageSize) => Math.ceil(Math.min(size.height, size.width) / 2) - 1;

/** The interface's 12 px, shrunk for tiny images so that leaving buffer out never fails. */
export const defaultBuffer = (size: ImageSize) => Math.min(12, maxBuffer(size));

export function checkBuffer(buffer: number, size: ImageSize, ctx: z.core.$RefinementCtx) {
  const limit = maxBuffer(size);
  if (buffer > limit) {
    ctx.addIssue({
      code: 'custom',
      path: ['buffer'],
      message: `must be an integer from 0 to ${limit} (less than half the smaller side of size ${size.height},${size.width})`,
      input: String(buffer),
    });
  }
}
