/**
 * How each map type looks. Road: a quiet road-map palette (pale land, light-blue water, thin
 * purple-grey borders, dark labels). Aerial: natural colours without any line or label (deep
 * ocean, shallow water along the coasts, land from green rainforest to tan desert to white
 * ice by latitude); AerialWithLabels adds faint borders and white labels.
 */
import { parseColour, type MapType, type Rgba } from '../../src/sdk/plugin.ts';

export interface Stroke {
  colour: Rgba;
  /** Width in pixels at zoom 1; grows with the zoom up to twice that. */
  width: number;
}

export interface MapStyle {
  water: Rgba;
  /** One colour, or colours at latitudes (degrees, north to south) blended in between. */
  land: Rgba | LatitudeColour[];
  /** Shallow water: a wide stroke along the coasts under the land, so its outer half shows. */
  shallows?: Stroke;
  borders?: Stroke;
  labels?: { colour: Rgba; halo: Rgba };
}

export interface LatitudeColour {
  latitude: number;
  colour: Rgba;
}

const colour = (text: string): Rgba => parseColour(text)!;

/** Natural land colours by latitude: ice, tundra, forest, steppe, desert belts, rainforest. */
const NATURAL_LAND: LatitudeColour[] = [
  [90, '#eef1f2'],
  [72, '#dfe4e3'],
  [64, '#8a9377'],
  [55, '#55693f'],
  [45, '#627447'],
  [36, '#9b9460'],
  [27, '#c2a774'],
  [18, '#a89a62'],
  [9, '#4c6e37'],
  [-8, '#436932'],
  [-18, '#8e8a55'],
  [-26, '#b8986a'],
  [-36, '#7f8551'],
  [-48, '#5f7046'],
  [-58, '#9aa293'],
  [-66, '#e4e9ea'],
  [-90, '#f4f6f7'],
].map(([latitude, hex]) => ({ latitude: latitude as number, colour: colour(hex as string) }));

const ROAD: MapStyle = {
  water: colour('#aad3df'),
  land: colour('#f3f0e9'),
  borders: { colour: colour('#9e88ad'), width: 0.8 },
  labels: { colour: colour('#4d4d4d'), halo: colour('#f3f0e9') },
};

const AERIAL: MapStyle = {
  water: colour('#12345c'),
  land: NATURAL_LAND,
  shallows: { colour: colour('#2b5f8c'), width: 5 },
};

const AERIAL_WITH_LABELS: MapStyle = {
  ...AERIAL,
  borders: { colour: colour('#d8cf9a'), width: 0.8 },
  labels: { colour: colour('#ffffff'), halo: colour('#1c1c1c') },
};

export const MAP_STYLES: Record<MapType, MapStyle> = {
  Road: ROAD,
  Aerial: AERIAL,
  AerialWithLabels: AERIAL_WITH_LABELS,
};

/** The land colour at `latitude`, blended between the two nearest listed latitudes. */
export function colourAtLatitude(colours: LatitudeColour[], latitude: number): Rgba {
  const below = colours.findIndex((entry) => entry.latitude <= latitude);
  if (below === -1) return colours[colours.length - 1].colour;
  if (below === 0) return colours[0].colour;
  const north = colours[below - 1];
  const south = colours[below];
  const t = (north.latitude - latitude) / (north.latitude - south.latitude);
  const mix = (a: number, b: number) => a + (b - a) * t;
  return {
    r: mix(north.colour.r, south.colour.r),
    g: mix(north.colour.g, south.colour.g),
    b: mix(north.colour.b, south.colour.b),
    a: mix(north.colour.a, south.colour.a),
  };
}
