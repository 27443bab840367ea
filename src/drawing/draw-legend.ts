/**
 * The legend route's picture, on a drawing worker: the legend alone as SVG (format=svg) or
 * rasterized to PNG, sized to its content, as WMS GetLegendGraphic answers it. Its text is
 * glyph outlines (text/), so resvg loads no font.
 */
import { BadRequestError } from '../errors.ts';
import { rasterize } from '../raster/rasterize.ts';
import type { DrawingContext } from '../job-context/context.ts';
import { legendAlone } from '../legend/legend-svg.ts';
import type { Legend } from '../thematic/legend.ts';
import type { Handled } from '../workers/serve-jobs.ts';

export interface LegendJob {
  legend: Legend;
  format: 'png' | 'svg';
  /** Real pixels per CSS pixel of the PNG. */
  pixelRatio: number;
  /** The longest side the legend may take, CSS pixels (limits.maxSize, and the pixel budget at this scale). */
  maxSide: number;
}

export interface DrawnLegend {
  picture: Uint8Array;
}

export function drawLegend(job: LegendJob, context: DrawingContext): Handled<DrawnLegend> {
  const drawn = legendAlone(job.legend, job.maxSide);
  if (!drawn) {
    throw new BadRequestError(
      `The legend does not fit in ${job.maxSide} by ${job.maxSide} CSS pixels, the most limits.maxSize and limits.maxPixelsPerRequest allow ` +
        `at scale ${job.pixelRatio}. Ask for a smaller 'scale'.`,
    );
  }
  context.lap('svg');
  const picture =
    job.format === 'svg'
      ? new TextEncoder().encode(drawn.svg)
      : rasterize(context.rasterizer, drawn.svg, { width: drawn.width, height: drawn.height, pixelRatio: job.pixelRatio, fonts: [], compressionLevel: context.compressionLevel }, context.lap);
  return { result: { picture }, transfer: [picture.buffer as ArrayBuffer] };
}
