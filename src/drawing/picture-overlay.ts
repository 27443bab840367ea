/**
 * What a styled picture draws over its features: the legend in its corner, then the labels,
 * placed so that none overlaps another, the legend or a map's attribution strip, or leaves
 * the picture, larger features first. The same for images and maps.
 */
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import type { Shape } from '../geometry/shape.ts';
import type { BBox } from '../geometry/types.ts';
import { labelsSvg } from '../labels/labels-svg.ts';
import { placeLabels, type PlacedLabel } from '../labels/place-labels.ts';
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
  /** Pixels at the bottom kept clear (a map's attribution strip). */
  bottomInset?: number;
  checkpoint: Checkpoint;
}

export interface Overlay {
  /** '' for none: the labels under the legend, neither covering the other. */
  svg: string;
  /** The labels placed, which a map's basemap labels give way to (labels/basemap-labels.ts). */
  labels: readonly PlacedLabel[];
}

/** What a styled picture draws over its features, and the labels it placed there. */
export function pictureOverlay(styling: FeatureStyling, styled: StyledFeatures, picture: OverlayPicture): Overlay {
  const { width, height, bottomInset = 0 } = picture;
  const legend = styling.legend && legendSvg(styling.legend.legend, { width, height, position: styling.legend.position, bottomInset });
  if (!styling.labels) return { svg: legend?.svg ?? '', labels: [] };
  const taken: BBox[] = [
    ...(legend ? [legend.box] : []),
    ...(bottomInset > 0 ? [{ xmin: 0, ymin: height - bottomInset, xmax: width, ymax: height }] : []),
  ];
  const features = picture.pixels.flatMap((shape, i) => {
    const text = styled.labels[i];
    return text === undefined ? [] : [{ shape, text }];
  });
  const { pointRadius, maxLabels, checkpoint } = picture;
  const placed = placeLabels(features, { width, height, size: styling.labels.size, pointRadius, maxLabels, taken, checkpoint });
  return { svg: labelsSvg(placed, styling.labels) + (legend?.svg ?? ''), labels: placed };
}
