/**
 * Issue 29 on Deno and Bun: there a data source's requests all go by the runtime's fetch()
 * (src/sources: node:http on Node only), so a stalled source and a bucket of thousands of
 * files meet other clients than on Node. One small run of each scenario per runtime: a
 * source that stalls after its headers (one wave of twenty requests), and 3,000 shapefiles
 * in an S3 bucket paged through /ogc/collections; /health timed throughout. The scenarios,
 * and what they assert, are test/support/hostile-scenarios.ts's; Node runs them whole in
 * stalled-source.test.ts and thousands-of-files.test.ts.
 */
import { afterAll, describe, it } from 'vitest';
import { stalledSourceScenario, thousandsOfFilesScenario } from '../../support/hostile-scenarios.ts';
import { removeTempDirs } from '../../support/temp-dir.ts';

afterAll(() => removeTempDirs());

describe.each(['deno', 'bun'] as const)('on %s', (runtime) => {
  it('a source that stalls after its headers holds no request past its budget, and the service serves once it behaves', async () => {
    await stalledSourceScenario(runtime, { waves: 1 });
  }, 90_000);

  it('a bucket of 3,000 shapefiles is paged through /ogc/collections within the budget, a few HEADs at a time', async () => {
    await thousandsOfFilesScenario(runtime, { protocol: 's3', shapefiles: 3000 });
  }, 90_000);
});
