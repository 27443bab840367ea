/**
 * Answers to requests the runtime's HTTP parser refused (a URL or header block too large), which
 * never reach the app: an envelope with a TraceId all the same (docs/decisions.md, "Errors").
 * Only Node's adapter calls it (runtime/node.ts): Deno lets such requests through to the app,
 * and Bun's parser answers them itself (README.md, "Runtimes").
 */
import { reasonPhrase } from '../envelope/model.ts';
import { createTraceId } from '../envelope/trace-id.ts';
import type { Format } from '../params/fields.ts';
import type { ErrorSettings } from './errors.ts';
import { envelopeBody } from './respond.ts';

/** Why a runtime's HTTP server refused a request before the app saw it. */
export type MalformedStatus = 400 | 414 | 431;

/** Answers a request the runtime's HTTP parser refused, which never reached the app. */
export type MalformedAnswer = (status: MalformedStatus, details: string, format: Format) => Promise<Response>;

/**
 * A request too large or too broken for the server to parse still gets an envelope with a
 * TraceId, like every other answer, never a bare status line.
 */
export function malformedAnswer(settings: ErrorSettings, instance: string): MalformedAnswer {
  return async (status, details, format) => {
    const traceId = createTraceId(instance);
    const { contentType, body } = envelopeBody(
      {
        copyright: settings.copyright,
        statusCode: status,
        statusDescription: reasonPhrase(status),
        errorDetails: details,
        traceId,
        resource: null,
      },
      format,
      settings,
    );
    return new Response(body, { status, headers: { 'Content-Type': contentType, 'X-Trace-Id': traceId, Connection: 'close' } });
  };
}
