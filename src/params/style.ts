/**
 * The images operation's style parameters and the rules that resolve them into a DrawStyle
 * (docs/decisions.md, "Drawing an image"), shared with theme files, which set the same names.
 * Read apart from the schema, so that a parameter another turns off (bgAngle without both
 * colours, the grid's without grid=1) is ignored, never refused.
 */
import type { z } from 'zod';
import type { DrawStyle, Rgba } from '../svg/style.ts';
import { colourParam, givenReader, integerParam, switchParam, withDefault } from './fields.ts';

/** Style settings named as the query parameters; what a request or a theme may set. */
export interface StyleSettings {
  lineColor?: Rgba;
  lineWidth?: number;
  fillColor?: Rgba;
  bgColor1?: Rgba;
  bgColor2?: Rgba;
  bgAngle?: number;
  grid?: boolean;
  gridColor?: Rgba;
  gridSpace?: number;
  pointSize?: number;
  fillOpacity?: number;
}

const TRANSPARENT: Rgba = { r: 0, g: 0, b: 0, a: 0 };

/** The interface's defaults. */
export const DEFAULT_STYLE = {
  lineColor: { r: 255, g: 0, b: 0, a: 1 },
  lineWidth: 2,
  fillColor: { r: 211, g: 211, b: 211, a: 1 },
  gridColor: { r: 211, g: 211, b: 211, a: 1 },
  gridSpace: 20,
  pointSize: 5,
} as const;

/** Applies the defaults and the rules of docs/decisions.md to whatever settings were given. */
export function resolveStyle(settings: StyleSettings): DrawStyle {
  const gradient = settings.bgColor2 !== undefined;
  return {
    lineColor: settings.lineColor ?? DEFAULT_STYLE.lineColor,
    lineWidth: settings.lineWidth ?? DEFAULT_STYLE.lineWidth,
    fillColor: settings.fillColor ?? DEFAULT_STYLE.fillColor,
    fillOpacity: settings.fillOpacity ?? 1,
    pointRadius: settings.pointSize ?? DEFAULT_STYLE.pointSize,
    background: {
      color1: settings.bgColor1 ?? TRANSPARENT,
      ...(gradient ? { color2: settings.bgColor2 } : {}),
      angle: gradient && settings.bgColor1 !== undefined ? (settings.bgAngle ?? 0) : 0,
    },
    ...(settings.grid
      ? { grid: { color: settings.gridColor ?? DEFAULT_STYLE.gridColor, space: settings.gridSpace ?? DEFAULT_STYLE.gridSpace } }
      : {}),
  };
}

/** The style parameters of an images request; the API description lists them from here. */
export const styleFields = {
  linecolor: withDefault(colourParam(), '#FF0000'),
  linewidth: withDefault(integerParam(0, 100), DEFAULT_STYLE.lineWidth),
  fillcolor: withDefault(colourParam(), '#D3D3D3'),
  bgcolor1: withDefault(colourParam(), 'Transparent'),
  bgcolor2: colourParam().optional(),
  bgangle: withDefault(integerParam(0, 360), 0),
  grid: withDefault(switchParam(), 0),
  gridcolor: withDefault(colourParam(), '#D3D3D3'),
  gridspace: withDefault(integerParam(2, 10_000), DEFAULT_STYLE.gridSpace),
};

/**
 * Reads the style parameters of a request that has no theme. Parameters that the rules
 * ignore (bgAngle without both colours, grid settings without grid=1) are not validated.
 */
export function readStyleParams(
  query: Record<string, string | undefined>,
  ctx: z.core.$RefinementCtx,
): StyleSettings {
  const read = givenReader(styleFields, query, ctx);
  const grid = read('grid') ?? false;
  const bothBackgrounds = query.bgcolor1 !== undefined && query.bgcolor2 !== undefined;
  return {
    lineColor: read('linecolor'),
    lineWidth: read('linewidth'),
    fillColor: read('fillcolor'),
    bgColor1: read('bgcolor1'),
    bgColor2: read('bgcolor2'),
    bgAngle: bothBackgrounds ? read('bgangle') : undefined,
    grid,
    gridColor: grid ? read('gridcolor') : undefined,
    gridSpace: grid ? read('gridspace') : undefined,
  };
}
