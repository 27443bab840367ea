/** The envelope every operation answers with, as the interface defines it, and the images it carries. */
import type { HotSpot } from '../hotspots/hotspots.ts';
import type { Legend } from '../thematic/legend.ts';

export type { HotSpot };

/** One drawn image, as its drawing worker writes it into the answer (image-part.ts). */
export interface FeatureImage {
  itemId: number;
  featureId: number;
  /** The picture: a PNG in every envelope; format=svg and format=jpeg answer their bytes alone. */
  bytes: Uint8Array;
  /** null when includeHotSpots=0. */
  hotSpots: HotSpot[] | null;
}

export interface ImageCollection {
  itemId: number;
  shapefile: string;
  /**
   * Each image as its drawing worker wrote it in the answer's format (image-part.ts): its
   * `ShapefileFeatureImage` element (XML) or object (JSON) of the envelope, in UTF-8; for
   * format=png, svg and jpeg the picture's bytes.
   */
  images: Uint8Array[];
  /** A styled request's classes (styleBy, or a theme's classify or rules), after the images. */
  legend?: Legend;
}

/** The legend route's Resource: a styled request's legend alone, as WMS GetLegendGraphic answers it. */
export interface ShapefileLegend {
  kind: 'legend';
  shapefile: string;
  legend: Legend;
}

/** One period's count of a key's requests (docs/configuration.md, "Quotas and usage"). */
export interface PeriodUse {
  count: number;
  /** The key's quota for the period; null when it has none. */
  quota: number | null;
  /** When the next period begins: ISO 8601, UTC. */
  resetsAt: string;
}

/** The usage route's Resource: a key's own counts and limits. */
export interface KeyUsage {
  kind: 'usage';
  today: PeriodUse;
  thisMonth: PeriodUse;
  rateLimit: { perSecond: number; burst: number } | null;
  maxConcurrent: number | null;
}

/** The Response envelope every operation returns, success or failure. */
export interface Envelope {
  copyright: string;
  statusCode: number;
  statusDescription: string;
  /** Empty on success. */
  errorDetails: string;
  traceId: string;
  /** null on failure. */
  resource: ImageCollection | ShapefileLegend | KeyUsage | null;
}

export const RESOURCE_TYPE = 'ShapefileFeatureImageCollection';
export const LEGEND_RESOURCE_TYPE = 'ShapefileLegend';
export const USAGE_RESOURCE_TYPE = 'KeyUsage';

const REASON_PHRASES: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  414: 'URI Too Long',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const reasonPhrase = (status: number) => REASON_PHRASES[status] ?? 'Error';
