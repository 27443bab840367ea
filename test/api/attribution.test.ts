/**
 * The Copyright of real answers (docs/decisions.md, "Envelope"): the service's configured text,
 * the data's configured attribution (the sample data's only when the sample data is
 * served), and on a map the basemap's, each said once; decoded from XML and JSON envelopes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLE_DATA_ATTRIBUTION } from '../../src/envelope/copyright.ts';
import { writeFixtures } from '../support/fixtures.ts';
import { imagesUrl, startServer, type TestServer } from '../support/server.ts';
import { child, parseXml } from '../support/xml.ts';
import { allTypes, CHECKERBOARD_PLUGIN, mapUrl } from '../map/support.ts';

const SERVICE = 'Copyright © 2026 shapeshot contributors.';

type Query = Record<string, string | number>;

async function copyright(server: TestServer, operation: 'images' | 'map', query: Query, status = 200): Promise<string> {
  const url = operation === 'images' ? imagesUrl(server, query) : mapUrl(server, query);
  const response = await fetch(url);
  const text = await response.text();
  expect(response.status, text).toBe(status);
  if (query.format === 'json') return (JSON.parse(text) as { Copyright: string }).Copyright;
  return child(parseXml(text), 'Copyright')!.text;
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('serving the bundled sample data over the embedded basemap', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({});
  });
  afterAll(() => server.close());

  it("credits the sample data's sources on images", async () => {
    expect(await copyright(server, 'images', { file: 'countries', fid: 0, format: 'json', size: '60,80' })).toBe(`${SERVICE} ${SAMPLE_DATA_ATTRIBUTION}`);
  });

  it('says Natural Earth once on a map, though the data and the basemap both credit it', async () => {
    for (const format of ['json', 'xml']) {
      const text = await copyright(server, 'map', { file: 'countries', fid: 0, format, size: '60,80' });
      expect(text).toBe(`${SERVICE} ${SAMPLE_DATA_ATTRIBUTION}`);
      expect(occurrences(text, 'Natural Earth')).toBe(1);
    }
  });
});

describe("serving one's own data without configuration", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      dataDir: writeFixtures(),
      basemaps: { providers: { board: { plugin: CHECKERBOARD_PLUGIN, options: { cell: 64, attribution: 'Board ©' } } }, types: allTypes('board') },
    });
  });
  afterAll(() => server.close());

  it('says nothing of the sample data', async () => {
    const images = await copyright(server, 'images', { file: 'squares', fid: 0, format: 'xml' });
    expect(images).toBe(SERVICE);
    const map = await copyright(server, 'map', { file: 'points', fid: 0, format: 'json', size: '60,80' });
    expect(map).toBe(`${SERVICE} Board ©`);
    expect(map).not.toMatch(/Natural Earth|Sample data/);
  });
});

describe('configured attribution', () => {
  let server: TestServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = writeFixtures();
    server = await startServer({
      dataDir,
      envelope: { copyright: '© Example Maps Ltd.' },
      data: { attribution: 'Data © Kadaster (CC BY 4.0)', files: { Points: { attribution: 'Points © OpenStreetMap contributors' } } },
      basemaps: {
        providers: { board: { plugin: CHECKERBOARD_PLUGIN, options: { cell: 64, attribution: '© OpenStreetMap contributors' } } },
        types: allTypes('board'),
      },
    });
  });
  afterAll(() => server.close());

  it("gives every shapefile the folder's", async () => {
    expect(await copyright(server, 'images', { file: 'squares', fid: 0, format: 'json' })).toBe('© Example Maps Ltd. Data © Kadaster (CC BY 4.0)');
    expect(await copyright(server, 'map', { file: 'cities', fid: 0, format: 'xml', size: '60,80' })).toBe(
      '© Example Maps Ltd. Data © Kadaster (CC BY 4.0) © OpenStreetMap contributors',
    );
  });

  it('gives a shapefile with its own attribution that one, whatever the case of file=', async () => {
    expect(await copyright(server, 'images', { file: 'POINTS', fid: 0, format: 'json' })).toBe('© Example Maps Ltd. Points © OpenStreetMap contributors');
  });

  it("leaves out the basemap's credit on a map when the data's already says it", async () => {
    const map = await copyright(server, 'map', { file: 'points', fid: 0, format: 'json', size: '60,80' });
    expect(map).toBe('© Example Maps Ltd. Points © OpenStreetMap contributors');
  });

  it("gives errors the service's text alone: they show no data", async () => {
    expect(await copyright(server, 'images', { file: 'squares', fid: 99, format: 'json' }, 404)).toBe('© Example Maps Ltd.');
    const withoutKey = await fetch(server.url('/REST/v1/shapefiles/images?file=squares&fid=0&format=json'));
    expect(withoutKey.status).toBe(401);
    expect(((await withoutKey.json()) as { Copyright: string }).Copyright).toBe('© Example Maps Ltd.');
  });

  it('changes the ETag of an answer whose attribution changed, and only then', async () => {
    const etagOf = async (server: TestServer, file: string) =>
      (await fetch(imagesUrl(server, { file, fid: 0, format: 'json' }))).headers.get('etag');
    // The same files, and the same attribution for Points only.
    const other = await startServer({
      dataDir,
      envelope: { copyright: '© Example Maps Ltd.' },
      data: { attribution: 'Data © someone else', files: { points: { attribution: 'Points © OpenStreetMap contributors' } } },
    });
    try {
      expect(await etagOf(other, 'squares')).not.toBe(await etagOf(server, 'squares'));
      expect(await etagOf(other, 'points')).toBe(await etagOf(server, 'points'));
    } finally {
      await other.close();
    }
  });
});
