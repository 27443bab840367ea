/**
 * /metrics' counts by key stay bounded whatever the configuration holds (docs/configuration.md,
 * "Quotas and usage"): the first 100 key names seen have series of their own, the rest share
 * 'other'.
 */
import { describe, expect, it } from 'vitest';
import { createServiceMetrics } from '../../src/metrics/service-metrics.ts';
import type { PoolStats } from '../../src/workers/worker-pool.ts';

const IDLE_POOL: PoolStats = { waiting: 0, running: 0, finished: 0, cancelled: 0, expectedWaitMs: 0, workersReady: 1, busyMs: 0, counts: {} };

describe('the counts by key', () => {
  it('hold at most 100 key names, and count the others as other', async () => {
    const metrics = createServiceMetrics({ stats: IDLE_POOL });
    for (let i = 0; i < 150; i++) metrics.keyAnswered(`key-${i}`, 1);
    metrics.keyAnswered('key-0', 3);
    const series = (await metrics.exposition()).split('\n').filter((line) => line.startsWith('shapeshot_key_requests_total{'));
    expect(series).toHaveLength(101);
    expect(series).toContain('shapeshot_key_requests_total{key_name="key-0"} 2');
    expect(series).toContain('shapeshot_key_requests_total{key_name="other"} 50');
    expect(await metrics.exposition()).toContain('shapeshot_key_pictures_total{key_name="key-0"} 4');
  });
});
