import { randomBytes } from 'node:crypto';

/** `<instance>/<UTC time yyyyMMddTHHmmssZ>/<request id>`, as decisions.md defines TraceId. */
export function createTraceId(instance: string, now: Date = new Date()): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, 'Z');
  return `${instance}/${stamp}/${randomBytes(8).toString('hex')}`;
}
