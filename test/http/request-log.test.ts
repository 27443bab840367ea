/**
 * The request log keeps no key: not from the query (left out), and not from a path a key was
 * pasted into by mistake (the route is logged by its pattern, never the path that came).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFixtures } from '../support/fixtures.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ dataDir: writeFixtures(), logLevel: 'info' });
});

afterAll(() => server.close());

function requestLines(): Array<Record<string, unknown>> {
  return server.log.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request');
}

describe('the request log', () => {
  it('holds no key pasted into a path, on any route, matched or not', async () => {
    const paths = [
      `/${TEST_KEY}`,
      `/REST/v1/shapefiles/${TEST_KEY}?key=${TEST_KEY}`,
      `/ogc/collections/${TEST_KEY}?key=${TEST_KEY}`,
      `/ogc/collections/lines/items/${TEST_KEY}?key=${TEST_KEY}`,
    ];
    for (const path of paths) {
      const answered = server.nextAnswer(path);
      const response = await fetch(server.url(path));
      await response.arrayBuffer();
      await answered;
    }
    const lines = requestLines();
    expect(lines.length).toBeGreaterThanOrEqual(paths.length);
    for (const line of server.log) expect(line).not.toContain(TEST_KEY);
  });

  it("names the parameters the route took, never a value, and no name it did not take", async () => {
    const paths = [
      `/ogc/collections/lines/items?key=${TEST_KEY}&filter=${encodeURIComponent("NAME = 'secret-value'")}&limit=5`,
      `/REST/v1/shapefiles/images?file=lines&fid=0&format=png&LineColor=red&_=${TEST_KEY}-busted&key=${TEST_KEY}`,
    ];
    for (const path of paths) {
      // The URL as the server has it: its parser percent-encodes the filter's quotes.
      const answered = server.nextAnswer(new URL(server.url(path)).search);
      const response = await fetch(server.url(path));
      expect(response.status, await response.text()).toBe(200);
      await answered;
    }
    const [items, image] = requestLines().slice(-2);
    expect(items.parameters).toEqual(['key', 'filter', 'limit']);
    expect(image.parameters).toEqual(['file', 'fid', 'format', 'lineColor', 'key']);
    for (const line of server.log) {
      expect(line).not.toContain('secret-value');
      expect(line).not.toContain(TEST_KEY);
    }
  });

  it('names the route each request took by its pattern', async () => {
    const path = `/ogc/collections/lines?key=${TEST_KEY}`;
    const answered = server.nextAnswer(path);
    const response = await fetch(server.url(path));
    expect(response.status).toBe(200);
    await response.arrayBuffer();
    await answered;
    expect(requestLines().map((line) => line.route)).toContain('/ogc/collections/:collectionId');
  });
});
