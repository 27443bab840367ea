/**
 * The parameters images and maps both take, with the same names, defaults and rules
 * (docs/decisions.md, "Parameter values"), declared once so that the two operations cannot drift
 * apart on what `size`, `buffer` or `where` mean.
 */
import type { z } from 'zod';
import {
  fieldListParam,
  integerParam,
  MAX_SCALE,
  requiredText,
  sizeParam,
  switchParam,
  whereParam,
  withDefault,
  type Format,
  type ImageSize,
} from './fields.ts';

export interface RequestLimits {
  maxSize: number;
  maxIds: number;
}

/** Parameters both operations take, with the same rules (fid differs: optional on maps; format: their own lists). */
export const commonFields = (limits: RequestLimits) => ({
  file: requiredText('the name of a shapefile'),
  size: withDefault(sizeParam(limits.maxSize), '480,640'),
  buffer: withDefault(integerParam(0), 12),
  includehotspots: withDefault(switchParam(), 0),
  hotspotfields: fieldListParam().optional(),
  where: whereParam().optional(),
  nocache: withDefault(switchParam(), 0),
  scale: withDefault(integerParam(1, MAX_SCALE), 1),
});

interface CommonQuery {
  file: string;
  size?: ImageSize;
  buffer?: number;
  includehotspots?: boolean;
  hotspotfields?: string[];
  where?: string;
  nocache?: boolean;
  format?: Format;
  scale?: number;
}

/** The common parameters with their defaults applied and buffer checked against size. */
export function readCommon(query: CommonQuery, ctx: z.core.$RefinementCtx) {
  const size: ImageSize = query.size ?? { height: 480, width: 640 };
  const buffer = query.buffer ?? defaultBuffer(size);
  checkBuffer(buffer, size, ctx);
  return {
    file: query.file,
    size,
    buffer,
    includeHotSpots: query.includehotspots ?? false,
    /** Only with includeHotSpots (otherwise ignored, as docs/decisions.md says). */
    hotSpotFields: query.includehotspots ? query.hotspotfields : undefined,
    where: query.where,
    noCache: query.nocache ?? false,
    format: query.format ?? 'xml',
    /** Real pixels per CSS pixel: the image has size × scale pixels; hot spots stay in size's pixels. */
    scale: query.scale ?? 1,
  };
}

/** The largest buffer that leaves a pixel to draw in: less than half the smaller side. */
const maxBuffer = (size: ImageSize) => Math.ceil(Math.min(size.height, size.width) / 2) - 1;

/** The interface's 12 px, shrunk for tiny images so that leaving buffer out never fails. */
const defaultBuffer = (size: ImageSize) => Math.min(12, maxBuffer(size));

function checkBuffer(buffer: number, size: ImageSize, ctx: z.core.$RefinementCtx) {
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
