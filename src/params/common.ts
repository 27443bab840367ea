import type { z } from 'zod';
import {
  choiceParam,
  fieldListParam,
  FORMATS,
  integerParam,
  requiredText,
  sizeParam,
  switchParam,
  whereParam,
  type Format,
  type ImageSize,
} from './fields.ts';

export interface RequestLimits {
  maxSize: number;
  maxIds: number;
}

/** Parameters both operations take, with the same rules (fid differs: optional on maps). */
export const commonFields = (limits: RequestLimits) => ({
  file: requiredText('the name of a shapefile'),
  size: sizeParam(limits.maxSize).optional(),
  buffer: integerParam(0).optional(),
  includehotspots: switchParam().optional(),
  hotspotfields: fieldListParam().optional(),
  where: whereParam().optional(),
  nocache: switchParam().optional(),
  format: choiceParam(FORMATS).optional(),
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
    /** Only with includeHotSpots (otherwise ignored, as decisions.md says). */
    hotSpotFields: query.includehotspots ? query.hotspotfields : undefined,
    where: query.where,
    noCache: query.nocache ?? false,
    format: query.format ?? 'xml',
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
