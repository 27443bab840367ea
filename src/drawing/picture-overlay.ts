/**
 * What a styled picture draws over its features: the labels (placed so that none overlaps
 * another or leaves the picture, larger features first) and the legend in its corner. The
 * same for images and maps; a map keeps its attribution strip clear.
 */
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import type { Shape } from '../geometry/shape.ts';
import { labelsSvg } from '../labels/labels-svg.ts';
import { placeLabels } from '../labels/place-labels.ts';
import { legendSvg } from '../legend/legend-svg.ts';
import type { FeatureStyling, StyledFeatures } from './feature-styling.ts';

export interface OverlayPicture {
  /** CSS pixels. */
  width: number;
  height: number;
  /** The features as drawn, in CSS pixels, in the order of `styled`. */
  pixels: readonly Shape[];
  pointRadius: number;
  maxLabels: number;
  /** Pixels at the bottom the legend keeps clear of (a map's attribution strip). */
  bottomInset?: number;
  checkpoint: Checkpoint;
}

/** The overlay's SVG ('' for none). */
export function pictureOverlay(styling: FeatureStyling, styled: StyledFeatures, picture: OverlayPicture): string {
  let svg = '';
  if (styling.labels) {
    const features = picture.pixels.flatMap((shape, i) => {
      const text = styled.labels[i];
      return text === undefined ? [] : [{ shape, text }];
    });
    const { width, height, pointRadius, maxLabels, checkpoint } = picture;
    const placed = placeLabels(features, { width, height, size: styling.labels.size, pointRadius, maxLabels, checkpoint });
    svg += labelsSvg(placed, styling.labels);
  }
  if (styling.legend) {
    const { width, height, bottomInset } = picture;
    svg += legendSvg(styling.legend.legend, { width, height, position: styling.legend.position, ...(bottomInset ? { bottomInset } : {}) });
  }
  return svg;
}
