/**
 * The map operation's query (docs/api.md, "The map operation"): its fields, with the defaults
 * the API description shows, and the request the operation runs. Maps take no theme: their
 * style is the line colour and width, over a translucent fill of the same colour.
 */
import { z } from 'zod';
import { CULTURES, MAP_TYPES } from '../plugin-contract/basemap-plugin.ts';
import { MAX_ZOOM, MIN_ZOOM } from '../projection/web-mercator.ts';
import type { DrawStyle } from '../svg/style.ts';
import { commonFields, readCommon, type RequestLimits } from './common.ts';
import { choiceParam, colourParam, fidParam, integerParam, MAP_FORMATS, switchParam, withDefault } from './fields.ts';
import { foldQueryNames } from './normalize.ts';
import { DEFAULT_STYLE, resolveStyle } from './style.ts';
import { readThematic, thematicFields } from './thematic.ts';

/** Polygons on a map: the outline colour over a 20 % fill of the same colour. */
const MAP_FILL_OPACITY = 0.2;
/** Polygons coloured by class on a map: strong enough to read the classes, light enough to see the basemap through. */
const STYLED_MAP_FILL_OPACITY = 0.7;

/** The map operation's query (names lower-cased), validated, with the drawing style resolved. */
export function mapQuerySchema(limits: RequestLimits) {
  const fields = {
    ...commonFields(limits),
    fid: fidParam(limits.maxIds).optional(),
    format: withDefault(choiceParam(MAP_FORMATS), 'xml'),
    culture: withDefault(choiceParam(CULTURES), 'English'),
    type: withDefault(choiceParam(MAP_TYPES), 'Road'),
    linecolor: withDefault(colourParam(), '#FF0000'),
    linewidth: withDefault(integerParam(0, 100), 2),
    useboundingbox: withDefault(switchParam(), 0),
    zoom: integerParam(MIN_ZOOM, MAX_ZOOM).optional(),
  };
  const base = z.looseObject(fields);
  // The thematic parameters are read apart from the schema (only where they apply), but are the operation's all the same.
  const parameters = [...Object.keys(fields), ...Object.keys(thematicFields)];
  return z.preprocess(foldQueryNames(parameters), base).transform((query, ctx) => {
    const common = readCommon(query, ctx);
    const lineColor = query.linecolor ?? DEFAULT_STYLE.lineColor;
    // Maps take no theme: their thematic settings are the parameters alone.
    const thematic = readThematic(query as Record<string, string>, ctx, undefined, { lineColor: query.linecolor, lineWidth: query.linewidth });
    const style: DrawStyle = resolveStyle({
      lineColor,
      lineWidth: query.linewidth,
      fillColor: lineColor,
      fillOpacity: thematic.colouring ? STYLED_MAP_FILL_OPACITY : MAP_FILL_OPACITY,
    });
    return {
      ...common,
      /** undefined: every feature of the shapefile. */
      fids: query.fid,
      culture: query.culture ?? 'English',
      type: query.type ?? 'Road',
      zoom: query.zoom,
      useBoundingBox: query.useboundingbox ?? false,
      style,
      thematic,
    };
  });
}

export type MapRequest = z.output<ReturnType<typeof mapQuerySchema>>;
