/**
 * Answers of the image and map operations, and envelopes of every failure: the envelope put
 * together from the parts the drawing workers wrote, or the picture alone.
 */
import type { Context } from 'hono';
import type { AnswerLimit } from '../envelope/answer-limit.ts';
import { envelopeToJson } from '../envelope/json.ts';
import type { Envelope, ImageCollection } from '../envelope/model.ts';
import { envelopeToXml } from '../envelope/xml.ts';
import { IMAGE_CONTENT_TYPES, type Format } from '../params/fields.ts';
import { reserveAnswer } from './admission.ts';
import type { AppEnv } from './context.ts';

export interface EnvelopeSettings {
  schemaNamespace: string;
}

/**
 * Sends an envelope in the requested format. `png`, `svg` and `jpeg` answer with the first
 * image's bytes; such a request that failed gets a JSON envelope. `limit` bounds a
 * success's answer (its images were written within it already; the head is added here). A
 * success's bytes are reserved among the unread answers' before they are sent (a failure's
 * envelope is small, and must not be refused in turn).
 */
export function sendEnvelope(c: Context<AppEnv>, envelope: Envelope, format: Format, settings: EnvelopeSettings, limit?: AnswerLimit): Response {
  const status = envelope.statusCode as 200;
  if (status !== 200) notCacheable(c);
  const { resource } = envelope;
  const images = resource && !('kind' in resource) ? resource.images : undefined;
  const firstImage = images?.[0];
  const imageType = IMAGE_CONTENT_TYPES[format];
  // For /metrics' pictures by key: a picture format sends the first image alone.
  if (status === 200 && images) c.set('pictures', imageType && firstImage ? 1 : images.length);
  if (imageType && firstImage) {
    if (status === 200) reserveAnswer(c, firstImage.byteLength);
    c.header('Content-Type', imageType);
    return c.body(firstImage as Uint8Array<ArrayBuffer>, status);
  }
  const { contentType, body } = envelopeBody(envelope, format, settings, limit);
  if (status === 200) reserveAnswer(c, body.byteLength);
  c.header('Content-Type', contentType);
  return c.body(body, status);
}

/** The envelope as bytes in `format`: XML, or JSON (the image formats answer their errors in JSON). */
export function envelopeBody(
  envelope: Envelope,
  format: Format,
  settings: EnvelopeSettings,
  limit?: AnswerLimit,
): { contentType: string; body: Uint8Array<ArrayBuffer> } {
  if (format === 'xml') {
    return {
      contentType: 'application/xml; charset=utf-8',
      body: envelopeToXml(envelope, settings.schemaNamespace, limit) as Uint8Array<ArrayBuffer>,
    };
  }
  return {
    contentType: 'application/json; charset=utf-8',
    body: envelopeToJson(envelope, settings.schemaNamespace, limit) as Uint8Array<ArrayBuffer>,
  };
}

/** A successful answer: the collection in an envelope with status 200, within the answer's limit. */
export function sendCollection(
  c: Context<AppEnv>,
  resource: ImageCollection,
  format: Format,
  settings: EnvelopeSettings & { copyright: string },
  limit: AnswerLimit,
): Response {
  return sendEnvelope(
    c,
    {
      copyright: settings.copyright,
      statusCode: 200,
      statusDescription: 'OK',
      errorDetails: '',
      traceId: c.get('traceId'),
      resource,
    },
    format,
    settings,
    limit,
  );
}

/**
 * Takes the caching headers off an answer that must not be kept or revalidated: an error,
 * which describes this moment (overload, a file being replaced) rather than the resource, or
 * a map a fallback provider drew, which its ETag does not name.
 */
export function notCacheable(c: Context): void {
  c.header('Cache-Control', 'no-store');
  c.header('ETag', undefined);
  c.header('Last-Modified', undefined);
}
