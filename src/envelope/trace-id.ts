/**
 * The TraceId every answer carries (docs/decisions.md, "Envelope"), made in one place for the
 * request's first step (http/request-trace-id.ts) and for the requests the runtime's parser
 * refused before the app saw them (http/malformed.ts).
 */
import { randomBytes } from 'node:crypto';

/**
 * Request ids: eight random hex digits drawn once per process, then a counter. Unique per
 * instance (two processes share a prefix once in four billion starts), opaque to clients,
 * and free: a random draw per request cost 2 % of the CPU when thousands a second are shed.
 */
const processPrefix = randomBytes(4).toString('hex');
let counter = 0;
let stampSecond = -1;
let stamp = '';

/** `<instance>/<UTC time yyyyMMddTHHmmssZ>/<request id>`, as docs/decisions.md defines TraceId. */
export function createTraceId(instance: string, now = Date.now()): string {
  const second = Math.floor(now / 1000);
  if (second !== stampSecond) {
    stampSecond = second;
    stamp = new Date(second * 1000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  }
  counter = (counter + 1) % 0x100000000;
  return `${instance}/${stamp}/${processPrefix}${counter.toString(16).padStart(8, '0')}`;
}
