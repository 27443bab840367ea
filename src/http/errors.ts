/**
 * How a failure becomes an answer, wherever it was thrown (docs/decisions.md, "Errors"): an
 * error with a status becomes the envelope, or /ogc's exception through the same handler;
 * anything else a 500 that names no internals, logged with the TraceId a client will quote.
 */
import type { Context } from 'hono';
import type { Logger } from 'pino';
import { ServiceError } from '../errors.ts';
import { reasonPhrase } from '../envelope/model.ts';
import type { AppEnv } from './context.ts';
import { ClientGoneError } from './request-signal.ts';
import { sendEnvelope, type EnvelopeSettings } from './respond.ts';

export interface ErrorSettings extends EnvelopeSettings {
  copyright: string;
}

/** Any failure as an envelope with Resource null, in the requested format (else XML). */
export function sendError(
  c: Context<AppEnv>,
  status: number,
  details: string,
  settings: ErrorSettings,
  retryAfterSeconds?: number,
): Response {
  if (retryAfterSeconds !== undefined) c.header('Retry-After', String(retryAfterSeconds));
  return sendEnvelope(
    c,
    {
      copyright: settings.copyright,
      statusCode: status,
      statusDescription: reasonPhrase(status),
      errorDetails: details,
      traceId: c.get('traceId'),
      resource: null,
    },
    c.get('format') ?? 'xml',
    settings,
  );
}

/** How answers of one format (the envelope, /ogc's exception) say that a request failed. */
export type SendFailure = (
  c: Context<AppEnv>,
  status: number,
  message: string,
  retryAfterSeconds?: number,
) => Response | Promise<Response>;

/**
 * Hono's onError, whatever the format: service errors say what was wrong; a client that
 * left gets nothing; anything else is a logged 500.
 */
export function errorHandler(send: SendFailure, logger: Logger) {
  return (error: Error, c: Context<AppEnv>) => {
    if (error instanceof ServiceError) {
      if (error.status === 500) logger.error({ traceId: c.get('traceId'), err: error.message }, 'damaged shapefile');
      return send(c, error.status, error.message, error.retryAfterSeconds);
    }
    if (error instanceof ClientGoneError) {
      // Nobody reads this answer; the work stopped when the client left.
      return c.body(null, 499 as 400);
    }
    if (error instanceof URIError) return send(c, 400, 'The query string is not validly percent-encoded.');
    logger.error({ traceId: c.get('traceId'), err: error }, 'unexpected fault');
    return send(c, 500, `An unexpected error occurred while answering this request; quote TraceId '${c.get('traceId')}' when reporting it.`);
  };
}

/** The envelope's way: sendError with the configured settings. */
export const envelopeFailure =
  (settings: ErrorSettings): SendFailure =>
  (c, status, message, retryAfterSeconds) =>
    sendError(c, status, message, settings, retryAfterSeconds);
