import { describe, expect, it } from 'vitest';
import { refusal, RefusedError } from '../../src/http/admission.ts';

describe('a refusal', () => {
  it('is a 503 with its reason and wait, carries no stack, and leaves the stack limit as it was', () => {
    const limit = Error.stackTraceLimit;
    const refused = refusal('Too many at once.', 'key_concurrency', 3);
    expect(refused).toBeInstanceOf(RefusedError);
    expect([refused.status, refused.reason, refused.retryAfterSeconds]).toEqual([503, 'key_concurrency', 3]);
    expect(refused.stack).toBe('RefusedError: Too many at once.');
    expect(Error.stackTraceLimit).toBe(limit);
    expect(refusal('Busy.', 'queue_full').retryAfterSeconds).toBe(1);
  });
});
