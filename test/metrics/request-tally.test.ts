import { describe, expect, it } from 'vitest';
import { createRequestTally } from '../../src/metrics/request-tally.ts';

const tally = () =>
  createRequestTally({ countName: 'answers_total', countHelp: 'Answers.\nBy route.', latencyName: 'latency_seconds', latencyHelp: 'Latency.', buckets: [0.1, 1] });

describe('the request tally', () => {
  it('writes counts by route and status, and cumulative latency buckets with their sum and count', () => {
    const counted = tally();
    counted.record('/a', 200, 0.05);
    counted.record('/a', 200, 0.1); // on a bound: in that bucket (le is "less or equal")
    counted.record('/a', 503, 0.5);
    counted.record('/b', 404, 7);
    expect(counted.exposition()).toBe(
      [
        '# HELP answers_total Answers.\\nBy route.',
        '# TYPE answers_total counter',
        'answers_total{route="/a",status="200"} 2',
        'answers_total{route="/a",status="503"} 1',
        'answers_total{route="/b",status="404"} 1',
        '# HELP latency_seconds Latency.',
        '# TYPE latency_seconds histogram',
        'latency_seconds_bucket{le="0.1",route="/a"} 2',
        'latency_seconds_bucket{le="1",route="/a"} 3',
        'latency_seconds_bucket{le="+Inf",route="/a"} 3',
        'latency_seconds_sum{route="/a"} 0.65',
        'latency_seconds_count{route="/a"} 3',
        'latency_seconds_bucket{le="0.1",route="/b"} 0',
        'latency_seconds_bucket{le="1",route="/b"} 0',
        'latency_seconds_bucket{le="+Inf",route="/b"} 1',
        'latency_seconds_sum{route="/b"} 7',
        'latency_seconds_count{route="/b"} 1',
        '',
      ].join('\n'),
    );
  });

  it('escapes label values as the text format asks', () => {
    const counted = tally();
    counted.record('/a"b\\c\nd', 200, 0);
    expect(counted.exposition()).toContain('answers_total{route="/a\\"b\\\\c\\nd",status="200"} 1');
  });

  it('writes both families, without samples, before any request', () => {
    expect(tally().exposition()).toBe('# HELP answers_total Answers.\\nBy route.\n# TYPE answers_total counter\n# HELP latency_seconds Latency.\n# TYPE latency_seconds histogram\n');
  });
});
