/**
 * The type of a request's context: what the runtime's server gives each request, and what one
 * step of the request's frame hands the steps after it (the grant, the shapefile, the signal),
 * declared once so that the compiler checks every step that reads what an earlier one set.
 */
import type { KeyGrant } from '../auth/keys.ts';
import type { Format } from '../params/fields.ts';
import type { ShapefileFiles } from '../shapefile/file-set.ts';
import type { RequestTiming } from '../stages.ts';
import type { AnswerDelivery } from './answer-delivery.ts';

/** What the server gives each request, and the values middleware hands on to later middleware and handlers. */
export interface AppEnv {
  /** From the runtime's server, which writes the answers: when this one is written, and what all unsent ones hold. */
  Bindings: AnswerDelivery;
  Variables: {
    traceId: string;
    /** The format the client asked for, so errors can answer in it. */
    format: Format;
    grant: KeyGrant;
    /** The shapefile an image or map request names, as the key may see it: set by the access step (shapefile-access.ts), which those routes name. */
    shapefile: ShapefileFiles;
    /** The shapefile's version (sizes and times of its files) as the caching step read it: what work derived from the whole file is kept under. */
    shapefileVersion?: object;
    /** Fires when the client has gone or the request's time is up; every stage of the work stops on it. */
    signal: AbortSignal;
    /** Set once admission has admitted the request: the bound its answer's bytes are reserved within (admission.ts, reserveAnswer). */
    maxPendingAnswerBytes?: number;
    /** Set by admission once its route has answered: resolves when the answer is written or its connection closed (key-limits.ts holds the key's place until then). */
    answerWritten?: Promise<void>;
    /** The names of the query's parameters the route took, for the request log: names only, as a value may be a key. */
    queryNames?: readonly string[];
    /** How many pictures a successful answer carries (drawn images, a map, a legend drawn), for /metrics' count per key. */
    pictures?: number;
    /** Present when the server sends Server-Timing (config `serverTiming`). */
    timing?: RequestTiming;
  };
}
