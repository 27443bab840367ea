/** A colour with straight (not premultiplied) alpha; r, g, b 0–255, a 0–1. */
export interface Rgba {
  r: number;
  g: number;
  b: number;
  a: number;
}

/** Everything that decides how features are drawn on an image, after defaults and themes. */
export interface DrawStyle {
  lineColor: Rgba;
  /** Pixels; 0 draws no outline. */
  lineWidth: number;
  fillColor: Rgba;
  /** Multiplies fillColor's alpha (themes and maps use it; 1 by default). */
  fillOpacity: number;
  /** Radius in pixels of a point symbol. */
  pointRadius: number;
  background: Background;
  grid?: Grid;
}

/** A feature's own paint over the drawing's style (its class's or its rule's colours); what it leaves unset, the style gives. */
export interface FeaturePaint {
  fillColor?: Rgba;
  lineColor?: Rgba;
  lineWidth?: number;
}

export interface Background {
  color1: Rgba;
  /** When set, a linear gradient from color1 to color2. */
  color2?: Rgba;
  /** Degrees clockwise from the positive x axis (0: color1 left, color2 right). */
  angle: number;
}

export interface Grid {
  color: Rgba;
  /** Line spacing in pixels. */
  space: number;
}
