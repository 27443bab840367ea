import { z } from 'zod';
import { CULTURES, MAP_TYPES } from '../basemap/provider.ts';
import { MAX_ZOOM, MIN_ZOOM } from '../map/view.ts';
import type { DrawStyle } from '../svg/style.ts';
import {
  choiceParam,
  colourParam,
  fidParam,
  FORMATS,
  integerParam,
  requiredText,
  sizeParam,
  switchParam,
  type ImageSize,
} from './fields.ts';
import { checkBuffer, defaultBuffer, type ImagesLimits } from './images.ts';
import { foldQueryCase } from './normalize.ts';
import { DEFAULT_STYLE, resolveStyle } from './style.ts';

/** Polygons on a map: the outline colour over a 20 % fill of the same colour. */
const MAP_FILL_OPACITY = 0.2;

/** The map operation's query (names lower-cased), validated, with the drawing style resolved. */
export function mapQuerySchema(limits: ImagesLimits) {
  const base = z.looseObject({
    file: requiredText('the name of a shapefile'),
    fid: fidParam(limits.maxIds).optional(),
    size: sizeParam(limits.maxSize).optional(),
    culture: choiceParam(CULTURES).optional(),
    type: choiceParam(MAP_TYPES).optional(),
    linecolor: colourParam().optional(),
    linewidth: integerParam(0, 100).optional(),
    buffer: integerParam(0).optional(),
    includehotspots: switchParam().optional(),
    useboundingbox: switchParam().optional(),
    zoom: integerParam(MIN_ZOOM, MAX_ZOOM).optional(),
    nocache: switchParam().optional(),
    format: choiceParam(FORMATS).optional(),
  });
  return z.preprocess(foldQueryCase, base).transform((query, ctx) => {
    const size: ImageSize = query.size ?? { height: 480, width: 640 };
    const buffer = query.buffer ?? defaultBuffer(size);
    checkBuffer(buffer, size, ctx);
    const lineColor = query.linecolor ?? DEFAULT_STYLE.lineColor;
    const style: DrawStyle = resolveStyle({
      lineColor,
      lineWidth: query.linewidth,
      fillColor: lineColor,
      fillOpacity: MAP_FILL_OPACITY,
    });
    return {
      file: query.file,
      /** undefined: every feature of the shapefile. */
      fids: query.fid,
      size,
      buffer,
      culture: query.culture ?? 'English',
      type: query.type ?? 'Road',
      zoom: query.zoom,
      useBoundingBox: query.useboundingbox ?? false,
      includeHotSpots: query.includehotspots ?? false,
      noCache: query.nocache ?? false,
      format: query.format ?? 'xml',
      style,
    };
  });
}

export type MapRequest = z.output<ReturnType<typeof mapQuerySchema>>;
