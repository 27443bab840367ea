/**
 * Issue 29: one version per answer. A shapefile replaced in the store while a request reads
 * it (S3 writes each object on its own; an HTTP server's files are copied one by one) must
 * never give one version's geometry with the other's attributes, nor a 500 "damaged" because
 * the new .shp is shorter than the old .shx says or of another shape type: the answer is
 * one version's, whole (200), or a 503 with Retry-After.
 *
 * The store replaces version A (the sample countries: 241 polygons, a .shp of 1.6 MB) by
 * version B (the sample country centres: 250 points, a .shp of 7 KB) as an upload does, one
 * file after the other: some of the files at the moment the service first reads past a
 * component's header (a .shp record, a block of .dbf rows), answering that read from B, and
 * the rest only once the request is answered. In that gap no answer can be B whole, so it is
 * A whole or a 503; once the upload is complete, B whole or a 503. Over HTTP (versions by
 * size and Last-Modified) and S3 (by ETag). What A and B alone answer comes from the same
 * store under names of their own. On Node, Deno and Bun, shapeshot as a process of its own.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { RUNTIMES } from '../../../bench/server-process.ts';
import { sourceConfig } from '../../support/at-size-expectations.ts';
import { startHostileSource, type HostileSource, type SeenRequest } from '../../support/hostile-source.ts';
import { putSample, sampleBytes } from '../../support/hostile-scenarios.ts';
import { describeAnswer, startShapeshot, type Answered, type ShapeshotProcess, type Unanswered } from '../../support/shapeshot-process.ts';

const running: ShapeshotProcess[] = [];
afterEach(() => running.splice(0).forEach((server) => server.stop()));

const A = 'countries';
const B = 'country_centres';
/** A feature both versions have, whose record lies far past the end of B's .shp. */
const FID = 200;
/** B's files are newer than A's by a day: another Last-Modified (and size, and ETag) for each. */
const UPLOADED_AT = Date.parse('2024-06-01T12:00:00Z');

function upload(source: HostileSource, parts: string[]) {
  for (const part of parts) source.put(`moving.${part}`, sampleBytes(B, part), { modifiedMs: UPLOADED_AT });
}

/** A read of `file` past its header: a .shp record, a block of .dbf rows (headers are read from byte 0). */
const pastHeader = (file: string) => (request: SeenRequest) => request.kind === 'range' && request.name === file && !request.range?.startsWith('bytes=0-');

const UPLOADS = [
  { order: '.shp first, the rest after the answer', at: pastHeader('moving.shp'), first: ['shp'], then: ['shx', 'dbf', 'prj', 'cpg'] },
  { order: '.shp and .shx first, the rest after the answer', at: pastHeader('moving.shp'), first: ['shp', 'shx'], then: ['dbf', 'prj', 'cpg'] },
  { order: '.dbf first, the rest after the answer', at: pastHeader('moving.dbf'), first: ['dbf'], then: ['shp', 'shx', 'prj', 'cpg'] },
];

/** A feature as GeoJSON, without its links (which name the collection it was asked from). */
function featureOf(answer: Answered | Unanswered): string | undefined {
  if (answer.status !== 200) return undefined;
  const { links: _links, ...feature } = JSON.parse(answer.text) as Record<string, unknown>;
  return JSON.stringify(feature);
}

/** Asserts that `answer` is one of `allowed` whole, or a 503 with Retry-After; never a 500, never a mix. */
function expectOneVersion(answer: Answered | Unanswered, allowed: Record<string, string | undefined>, when: string) {
  expect.soft(answer.status, `${when}, never a 500: ${describeAnswer(answer)}`).not.toBe(500);
  if (answer.status === 200) {
    const feature = featureOf(answer);
    const which = Object.entries(allowed).find(([, expected]) => expected === feature)?.[0] ?? 'neither (a mix)';
    expect.soft(which, `${when}, a 200 is version ${Object.keys(allowed).join(' or ')} whole: ${describeAnswer(answer, 300)}`).not.toBe('neither (a mix)');
  } else {
    expect.soft(answer.status, `${when}, otherwise a 503: ${describeAnswer(answer)}`).toBe(503);
    if (answer.status === 503) expect.soft(Number(answer.headers['retry-after']), `${when}, the 503 carries Retry-After`).toBeGreaterThan(0);
  }
}

describe.each(RUNTIMES)('on %s', (runtime) => {
describe.each(['http', 's3'] as const)('a shapefile replaced in the store file by file while it is read, over %s', (protocol) => {
  it.each(UPLOADS)('$order: A whole or a 503 in the gap, B whole or a 503 after; never a mix, never a 500', async ({ at, first, then }) => {
    const source = await startHostileSource(protocol);
    try {
      putSample(source, 'version-a', A);
      putSample(source, 'version-b', B);
      putSample(source, 'moving', A);
      const server = await startShapeshot(runtime, { ...sourceConfig(source), render: { workers: 1 } });
      running.push(server);
      const item = (name: string) => server.get(`/ogc/collections/${name}/items/${FID}?f=json`, 30_000);

      // The catalog is listed (and every file's headers fetched ahead) by these; none of moving's records or rows is read yet.
      const [a, b] = [featureOf(await item('version-a')), featureOf(await item('version-b'))];
      expect(a, 'version A alone').toBeDefined();
      expect(b, 'version B alone').toBeDefined();

      let uploading = false;
      source.script((request) => {
        if (!uploading && at(request)) {
          uploading = true;
          upload(source, first);
        }
        return undefined;
      });
      const inTheGap = await item('moving');
      expect(uploading, 'the store began the upload during the request').toBe(true);
      expectOneVersion(inTheGap, { A: a }, `with ${first.join(', ')} of B and the rest of A`);
      upload(source, then);
      const after = await item('moving');
      expectOneVersion(after, { B: b }, 'once B is uploaded whole');
    } finally {
      await source.stop();
    }
  });
});
});
