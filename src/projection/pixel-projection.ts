import type { GeoStream, GeoStreamWrapper } from 'd3-geo';
import { type PixelTransform, toPixel } from './fit.ts';

/**
 * Vertices of a line or ring closer than this (pixels, on both axes) to the last vertex
 * drawn are skipped: invisible at this scale, and they would only bloat the SVG of a
 * feature with millions of vertices.
 */
const MIN_STEP = 0.25;

/** A d3-geo projection from the drawing space into image pixels, for geoPath. */
export function pixelProjection(transform: PixelTransform): GeoStreamWrapper {
  return { stream: (output) => new PixelStream(transform, output) };
}

class PixelStream implements GeoStream {
  private inLine = false;
  private lastX = NaN;
  private lastY = NaN;
  private pending: [number, number] | undefined;

  constructor(
    private readonly transform: PixelTransform,
    private readonly output: GeoStream,
  ) {}

  point(x: number, y: number): void {
    const [px, py] = toPixel(this.transform, x, y);
    if (!this.inLine) {
      this.output.point(px, py);
      return;
    }
    if (Math.abs(px - this.lastX) < MIN_STEP && Math.abs(py - this.lastY) < MIN_STEP) {
      this.pending = [px, py];
      return;
    }
    this.output.point(px, py);
    this.lastX = px;
    this.lastY = py;
    this.pending = undefined;
  }

  lineStart(): void {
    this.inLine = true;
    this.lastX = this.lastY = NaN;
    this.pending = undefined;
    this.output.lineStart();
  }

  lineEnd(): void {
    // A line must still end where it ends, however close its last vertices are.
    if (this.pending) this.output.point(...this.pending);
    this.inLine = false;
    this.output.lineEnd();
  }

  polygonStart(): void {
    this.output.polygonStart();
  }

  polygonEnd(): void {
    this.output.polygonEnd();
  }

  sphere(): void {
    this.output.sphere?.();
  }
}
