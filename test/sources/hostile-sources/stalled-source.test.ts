/**
 * Issue 29: one stalled source must not lock the whole service. A source that sends its
 * headers and then nothing (or its listing a byte a second) holds no request past its budget
 * and no admission slot for good: each request ends within limits.requestTimeoutMs with a
 * 503 naming the source, each request to the source is ended by us within the source's own
 * deadline, a hundred such requests leave the service serving once the source behaves, and
 * /health stays under 100 ms throughout. Node here; Deno and Bun in runtimes.test.ts. What
 * the tests expect where today's code has no hook is in test/support/at-size-expectations.ts.
 */
import { afterAll, describe, it } from 'vitest';
import { stalledSourceScenario } from '../../support/hostile-scenarios.ts';
import { removeTempDirs } from '../../support/temp-dir.ts';

afterAll(() => removeTempDirs());

describe('a source that stalls after its headers, on Node', () => {
  it('holds no request past its budget and no admission slot: 503s naming the source, then normal answers once it behaves', async () => {
    await stalledSourceScenario('node');
  }, 90_000);
});
