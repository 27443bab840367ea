import type { Context } from 'hono';
import { envelopeToJson } from '../envelope/json.ts';
import type { Envelope, ImageCollection } from '../envelope/model.ts';
import { envelopeToXml } from '../envelope/xml.ts';
import type { Format } from '../params/fields.ts';
import type { AppEnv } from './context.ts';

export interface EnvelopeSettings {
  schemaNamespace: string;
}

/**
 * Sends an envelope in the requested format. `png` answers with the first image's bytes
 * (our addition, for <img src>); a png request that failed gets a JSON envelope.
 */
export async function sendEnvelope(
  c: Context,
  envelope: Envelope,
  format: Format,
  settings: EnvelopeSettings,
): Promise<Response> {
  const status = envelope.statusCode as 200;
  const firstImage = envelope.resource?.images[0];
  if (format === 'png' && firstImage) {
    c.header('Content-Type', 'image/png');
    return c.body(firstImage.png as Uint8Array<ArrayBuffer>, status);
  }
  if (format === 'xml') {
    c.header('Content-Type', 'application/xml; charset=utf-8');
    return c.body(await envelopeToXml(envelope, settings.schemaNamespace), status);
  }
  c.header('Content-Type', 'application/json; charset=utf-8');
  return c.body(envelopeToJson(envelope, settings.schemaNamespace), status);
}

/** A successful answer: the collection in an envelope with status 200. */
export function sendCollection(
  c: Context<AppEnv>,
  resource: ImageCollection,
  format: Format,
  settings: EnvelopeSettings & { copyright: string },
): Promise<Response> {
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
  );
}
