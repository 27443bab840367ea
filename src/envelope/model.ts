import type { HotSpot } from '../hotspots/hotspots.ts';

export type { HotSpot };

export interface FeatureImage {
  itemId: number;
  featureId: number;
  /** The picture: a PNG in every envelope; format=svg and format=jpeg answer their bytes alone. */
  bytes: Uint8Array;
  /** The PNG as JSON's list of byte values, when a drawing worker wrote it (envelope/byte-list.ts). */
  pngJson?: Uint8Array;
  /** null when includeHotSpots=0. */
  hotSpots: HotSpot[] | null;
}

export interface ImageCollection {
  itemId: number;
  shapefile: string;
  images: FeatureImage[];
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
  resource: ImageCollection | null;
}

export const RESOURCE_TYPE = 'ShapefileFeatureImageCollection';

const REASON_PHRASES: Record<number, string> = {
  200: 'OK',
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  414: 'URI Too Long',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

export const reasonPhrase = (status: number) => REASON_PHRASES[status] ?? 'Error';
