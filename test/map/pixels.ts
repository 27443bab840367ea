import type { DecodedPng } from '../support/png.ts';

/** Pixels of the features' red outline (on basemaps that have no red). */
export const isFeatureRed = ([r, g, b]: number[]) => r > 150 && g < 100 && b < 100;

/** The centre of the red pixels within `radius` of (x, y): where a point symbol was drawn. */
export function redCentre(image: DecodedPng, x: number, y: number, radius = 12): [number, number] | undefined {
  let sumX = 0;
  let sumY = 0;
  let count = 0;
  for (let py = Math.max(0, Math.floor(y - radius)); py <= Math.min(image.height - 1, y + radius); py++) {
    for (let px = Math.max(0, Math.floor(x - radius)); px <= Math.min(image.width - 1, x + radius); px++) {
      if (!isFeatureRed(image.pixel(px, py))) continue;
      sumX += px;
      sumY += py;
      count++;
    }
  }
  // Pixel (px, py) covers px..px+1, so its centre is at +0.5.
  return count ? [sumX / count + 0.5, sumY / count + 0.5] : undefined;
}

export function sameColour(actual: number[], expected: readonly number[]) {
  return expected.every((value, i) => actual[i] === value);
}
