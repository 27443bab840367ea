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
): Promise<Response> {
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

/** Hono's onError: service errors say what was wrong; anything else is a logged 500. */
export function errorHandler(settings: ErrorSettings, logger: Logger) {
  return (error: Error, c: Context<AppEnv>) => {
    if (error instanceof ServiceError) {
      if (error.status === 500) logger.error({ traceId: c.get('traceId'), err: error.message }, 'damaged shapefile');
      return sendError(c, error.status, error.message, settings, error.retryAfterSeconds);
    }
    if (error instanceof ClientGoneError) {
      // Nobody reads this answer; the work stopped when the client left.
      return c.body(null, 499 as 400);
    }
    if (error instanceof URIError) {
      return sendError(c, 400, 'The query string is not validly percent-encoded.', settings);
    }
    logger.error({ traceId: c.get('traceId'), err: error }, 'unexpected fault');
    return sendError(
      c,
      500,
      `An unexpected error occurred while answering this request; quote TraceId '${c.get('traceId')}' when reporting it.`,
      settings,
    );
  };
}
