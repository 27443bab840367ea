/**
 * The tiles' query (docs/tiles.md, "Parameters"): the images operation's style, theme, thematic
 * and `where=` parameters, read by the same rules, plus `fields=` for vector tiles; and the
 * tile's address from its path. One query shape for a layer's raster tiles, vector tiles,
 * TileJSON and style, so that all four name the same picture.
 */
import { z } from 'zod';
import { BadRequestError, echo } from '../errors.ts';
import { MAX_TILE_ZOOM, MIN_TILE_ZOOM, type TileAddress } from '../projection/tile-address.ts';
import type { DrawStyle } from '../svg/style.ts';
import { choiceParam, fieldListParam, FORMATS, switchParam, whereParam, withDefault } from './fields.ts';
import { foldQueryNames } from './normalize.ts';
import { readStyleParams, resolveStyle, styleFields } from './style.ts';
import type { Theme } from './theme.ts';
import { readThematic, thematicFields } from './thematic.ts';

/** What a tile is answered as: a picture, at one or two real pixels per CSS pixel, or a vector tile. */
export type TileFormat = 'png' | 'mvt';

/** The tile query (names lower-cased), validated, with the style resolved as an image's. */
export function tileQuerySchema(themes: ReadonlyMap<string, Theme>) {
  const themeNames = [...themes.values()].map((theme) => theme.name);
  const fields = {
    theme: choiceParam(themeNames).optional(),
    where: whereParam().optional(),
    fields: fieldListParam().optional(),
    nocache: withDefault(switchParam(), 0),
    // What every operation's format says of errors (docs/tiles.md, "Parameters"): a tile's own
    // format is its path's, a TileJSON's tiles are named by `tiles`.
    format: choiceParam(FORMATS).optional(),
    tiles: withDefault(choiceParam(['mvt', 'png'] as const), 'mvt'),
  };
  const parameters = [...Object.keys(fields), ...Object.keys(styleFields), ...Object.keys(thematicFields)];
  return z.preprocess(foldQueryNames(parameters), z.looseObject(fields)).transform((query, ctx) => {
    const theme = query.theme === undefined ? undefined : themes.get(query.theme.toLowerCase());
    const settings = theme ? theme.style : readStyleParams(query as Record<string, string>, ctx);
    // A tile lies over other tiles and a basemap: no background and no grid of its own
    // (docs/tiles.md, "Raster tiles").
    const { background: _background, grid: _grid, ...style } = resolveStyle(settings);
    const thematic = readThematic(query as Record<string, string>, ctx, theme, settings);
    return {
      theme: query.theme,
      where: query.where,
      /** The .dbf fields a vector tile carries (besides the styling's own): none unless named. */
      fields: query.fields ?? [],
      noCache: query.nocache ?? false,
      /** TileJSON's: which of the layer's tiles it describes. */
      tileFormat: query.tiles ?? 'mvt',
      style: { ...style, background: { color1: { r: 0, g: 0, b: 0, a: 0 }, angle: 0 } } satisfies DrawStyle,
      thematic,
    };
  });
}

export type TileQuery = z.output<ReturnType<typeof tileQuerySchema>>;

/** A tile's path: `{z}/{x}/{y}.png`, `{y}@2x.png` or `{y}.mvt`. */
const TILE_NAME = /^(\d{1,7})(@2x)?\.(png|mvt)$/;

/** The tile a path names, with its format and pixel ratio; 400 naming what is wrong. */
export function tileOf(z: string, x: string, name: string): TileAddress & { format: TileFormat; pixelRatio: number } {
  const match = TILE_NAME.exec(name);
  if (!match) throw new BadRequestError(`The tile '${echo(name)}' must be {y}.png, {y}@2x.png or {y}.mvt.`);
  const [, row, doubled, format] = match;
  if (doubled && format === 'mvt') throw new BadRequestError('A vector tile has no @2x: it is drawn at any pixel ratio.');
  const zoom = wholeNumber(z, 'zoom');
  if (zoom < MIN_TILE_ZOOM || zoom > MAX_TILE_ZOOM) throw new BadRequestError(`The tile's zoom must be ${MIN_TILE_ZOOM} to ${MAX_TILE_ZOOM}; got ${zoom}.`);
  const last = 2 ** zoom - 1;
  const column = wholeNumber(x, 'column (x)');
  const rowNumber = Number(row);
  for (const [value, name] of [[column, 'column (x)'], [rowNumber, 'row (y)']] as const) {
    if (value > last) throw new BadRequestError(`The tile's ${name} must be 0 to ${last} at zoom ${zoom}; got ${value}.`);
  }
  return { z: zoom, x: column, y: rowNumber, format: format as TileFormat, pixelRatio: doubled ? 2 : 1 };
}

function wholeNumber(text: string, name: string): number {
  if (!/^\d{1,7}$/.test(text)) throw new BadRequestError(`The tile's ${name} must be a whole number; got '${echo(text)}'.`);
  return Number(text);
}
