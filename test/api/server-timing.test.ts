import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtures } from '../support/fixtures.ts';
import { imagesUrl, startServer, type TestServer } from '../support/server.ts';
import { allTypes, CHECKERBOARD_PLUGIN, mapUrl } from '../map/support.ts';

/** `name;dur=ms, …` as a map of stage to milliseconds. */
function stages(header: string | null): Record<string, number> {
  expect(header).not.toBeNull();
  return Object.fromEntries(
    header!.split(', ').map((entry) => {
      const match = /^([a-z-]+);dur=(\d+\.\d{3})$/.exec(entry);
      expect(match, entry).not.toBeNull();
      return [match![1], Number(match![2])];
    }),
  );
}

describe('Server-Timing', () => {
  let timed: TestServer;
  let plain: TestServer;
  beforeAll(async () => {
    const dataDir = writeFixtures();
    const basemaps = { providers: { board: { plugin: CHECKERBOARD_PLUGIN, options: {} } }, types: allTypes('board') };
    [timed, plain] = await Promise.all([
      startServer({ dataDir, basemaps, serverTiming: true }),
      startServer({ dataDir, basemaps }),
    ]);
  });
  afterAll(() => Promise.all([timed.close(), plain.close()]));

  it('is not sent unless configured: it tells the world how long each step takes', async () => {
    const response = await fetch(imagesUrl(plain, { file: 'squares', fid: 0 }));
    expect(response.status).toBe(200);
    expect(response.headers.get('server-timing')).toBeNull();
  });

  it('names the stages of an image, from the read to the PNG, and they add up to no more than the answer took', async () => {
    const started = performance.now();
    const response = await fetch(imagesUrl(timed, { file: 'squares', fid: 5, noCache: 1 }));
    const elapsed = performance.now() - started;
    expect(response.status).toBe(200);
    const timing = stages(response.headers.get('server-timing'));
    for (const stage of ['read', 'decode', 'svg', 'render', 'png', 'envelope']) expect(timing[stage], stage).toBeGreaterThan(0);
    const total = Object.values(timing).reduce((sum, ms) => sum + ms, 0);
    expect(total).toBeLessThanOrEqual(elapsed);
  });

  it('times a map with its basemap, and an error answer too', async () => {
    const map = await fetch(mapUrl(timed, { file: 'squares', fid: 0, type: 'Road', format: 'png' }));
    expect(map.status, await map.clone().text()).toBe(200);
    expect(Object.keys(stages(map.headers.get('server-timing')))).toEqual(expect.arrayContaining(['basemap', 'render', 'png']));
    const missing = await fetch(imagesUrl(timed, { file: 'squares', fid: 999 }));
    expect(missing.status).toBe(404);
    expect(stages(missing.headers.get('server-timing')).envelope).toBeGreaterThanOrEqual(0);
  });
});
