/**
 * Which labels a picture shows, and where: greedy placement in priority order (larger
 * features first: polygon area, line length; points in their given order; ties in the
 * given order, so the same input always places the same labels). A label is placed when its
 * box, the halo's width around the text, overlaps no placed box and lies wholly inside the
 * picture; otherwise it is left out. The work is bounded whatever the input: features are
 * ordered by a cheap weight first, texts are cut (label-text.ts) and measured only when
 * their turn comes, and the attempts stop after a number that follows maxLabels.
 */
import { StepPacer, type Checkpoint } from '../cancellation/checkpoint.ts';
import type { Shape } from '../geometry/shape.ts';
import type { BBox } from '../geometry/types.ts';
import { measureText } from '../text/layout.ts';
import { featureWeight, labelAnchor } from './anchors.ts';
import { haloWidth, labelText } from './label-text.ts';

export interface LabelFeature {
  /** In CSS pixels, as drawn. */
  shape: Shape;
  /** Empty or null: no label. */
  text: string | null;
}

export interface LabelOptions {
  /** The picture, CSS pixels. */
  width: number;
  height: number;
  /** Font size, CSS pixels. */
  size: number;
  /** Radius of a point's symbol: a point's label stands beside it. */
  pointRadius: number;
  maxLabels: number;
  /** Room already taken (the legend, a map's attribution strip): no label overlaps it. */
  taken?: readonly BBox[];
  checkpoint: Checkpoint;
}

export interface PlacedLabel {
  /** As drawn: trimmed, and cut with an ellipsis when long. */
  text: string;
  /** Where the baseline starts, CSS pixels. */
  x: number;
  y: number;
  /** The text's advance width and its ascent plus descent. */
  width: number;
  height: number;
  /** The room it takes, halo and spacing included: inside the picture, overlapping no other. */
  box: BBox;
}

export interface Placement {
  labels: PlacedLabel[];
  /** Texts measured: bounded by labelAttempts(maxLabels) whatever the input. */
  measured: number;
}

/** Texts measured before placement gives up: enough for every label to lose a few contests. */
export function labelAttempts(maxLabels: number): number {
  return Math.max(256, 4 * maxLabels);
}

/** Room between a point's symbol and its label, CSS pixels. */
const POINT_GAP = 2;

/** The labels placed, in priority order. */
export function placeLabels(features: readonly LabelFeature[], options: LabelOptions): PlacedLabel[] {
  return placeLabelsCounted(features, options).labels;
}

/** placeLabels, and how many texts it measured on the way. */
export function placeLabelsCounted(features: readonly LabelFeature[], options: LabelOptions): Placement {
  const { width, height, size, maxLabels, checkpoint } = options;
  const pacer = new StepPacer(checkpoint);
  const order = byWeight(features, pacer);
  const labels: PlacedLabel[] = [];
  const padding = haloWidth(size);
  const attempts = labelAttempts(maxLabels);
  let measured = 0;
  for (const index of order) {
    if (labels.length >= maxLabels || measured >= attempts) break;
    pacer.step(labels.length + 1);
    const { shape } = features[index];
    const anchor = labelAnchor(shape, pacer);
    if (!anchor || !nearPicture(anchor, width, height, padding)) continue;
    const text = labelText(features[index].text);
    const metrics = measureText(text, size);
    measured++;
    const candidates = shape.kind === 'points' ? besidePoint(anchor, metrics, options.pointRadius) : [centredOn(anchor, metrics)];
    for (const { x, y } of candidates) {
      const box = { xmin: x - padding, ymin: y - metrics.ascent - padding, xmax: x + metrics.width + padding, ymax: y + metrics.descent + padding };
      if (box.xmin < 0 || box.ymin < 0 || box.xmax > width || box.ymax > height) continue;
      if (labels.some((placed) => labelBoxesOverlap(placed.box, box)) || options.taken?.some((room) => labelBoxesOverlap(room, box))) continue;
      labels.push({ text, x, y, width: metrics.width, height: metrics.ascent + metrics.descent, box });
      break;
    }
  }
  return { labels, measured };
}

type Metrics = ReturnType<typeof measureText>;

/** The features with a text to show, heaviest first, ties in the given order. */
function byWeight(features: readonly LabelFeature[], pacer: StepPacer): number[] {
  const indices: number[] = [];
  const weights = new Float64Array(features.length);
  for (let i = 0; i < features.length; i++) {
    pacer.step();
    if (!features[i].text?.trim()) continue;
    weights[i] = featureWeight(features[i].shape, pacer);
    indices.push(i);
  }
  return indices.sort((a, b) => weights[b] - weights[a] || a - b);
}

/** Baseline start of a text centred on the anchor (its ascent-to-descent box's middle there). */
function centredOn(anchor: { x: number; y: number }, { width, ascent, descent }: Metrics): { x: number; y: number } {
  return { x: anchor.x - width / 2, y: anchor.y + (ascent - descent) / 2 };
}

/** A point's label to the right of its symbol, else left, above, below. */
function besidePoint(anchor: { x: number; y: number }, metrics: Metrics, radius: number): { x: number; y: number }[] {
  const reach = radius + POINT_GAP;
  const { width, ascent, descent } = metrics;
  const middle = centredOn(anchor, metrics);
  return [
    { x: anchor.x + reach, y: middle.y },
    { x: anchor.x - reach - width, y: middle.y },
    { x: middle.x, y: anchor.y - reach - descent },
    { x: middle.x, y: anchor.y + reach + ascent },
  ];
}

/** Whether a label near the anchor could lie inside the picture at all: the anchor may stand outside by a label's reach. */
function nearPicture({ x, y }: { x: number; y: number }, width: number, height: number, padding: number): boolean {
  return Number.isFinite(x) && Number.isFinite(y) && x > -padding && y > -padding && x < width + padding && y < height + padding;
}

/** Whether two labels' boxes collide: they share more than an edge. */
export function labelBoxesOverlap(a: BBox, b: BBox): boolean {
  return a.xmin < b.xmax && b.xmin < a.xmax && a.ymin < b.ymax && b.ymin < a.ymax;
}
