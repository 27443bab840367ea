/**
 * A map's feature labels win over its basemap's (docs/api.md, "Basemap labels"; issue 31): the
 * README's example, the sample countries by region named by `labelField=NAME`, wrote most
 * country names twice, once as the feature's label and once as the embedded basemap's. Each
 * map is compared, pixel for pixel, with the same map over the embedded basemap stripped of its
 * labels (embedded-without-labels.ts): where they are equal, the basemap wrote no name.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodePng } from '../support/png.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { allTypes, mapUrl } from './support.ts';

const WITHOUT_LABELS = fileURLToPath(new URL('./embedded-without-labels.ts', import.meta.url));
/** docs/api.md, "Thematic maps"; the README's example. */
const README_EXAMPLE = { file: 'countries', styleBy: 'REGION', labelField: 'NAME', legend: 1, format: 'png' };

let withLabels: TestServer;
let withoutLabels: TestServer;

/** A cold basemap reads Natural Earth first, which takes seconds on a loaded machine: the test is of labels, not of time. */
const UNHURRIED_MS = 120_000;
const UNHURRIED = { limits: { requestTimeoutMs: UNHURRIED_MS } };

beforeAll(async () => {
  withLabels = await startServer(UNHURRIED);
  withoutLabels = await startServer({ ...UNHURRIED, basemaps: { providers: { bare: { plugin: WITHOUT_LABELS } }, types: allTypes('bare') } });
});
afterAll(async () => {
  await Promise.all([withLabels?.close(), withoutLabels?.close()]);
});

/** Pixels that differ between the map over the embedded basemap and over the same basemap without its labels. */
async function basemapLabelPixels(query: Record<string, string | number>): Promise<number> {
  const picture = async (server: TestServer) => {
    const response = await fetch(mapUrl(server, query));
    expect(response.status).toBe(200);
    return decodePng(new Uint8Array(await response.arrayBuffer()));
  };
  const labelled = await picture(withLabels);
  const bare = await picture(withoutLabels);
  expect([labelled.width, labelled.height]).toEqual([bare.width, bare.height]);
  let differing = 0;
  for (let i = 0; i < labelled.data.length; i += 4) {
    if (labelled.data.subarray(i, i + 4).some((value, channel) => value !== bare.data[i + channel])) differing++;
  }
  return differing;
}

describe('basemap labels under feature labels', { timeout: UNHURRIED_MS }, () => {
  it("write no name on the README's example: every name it shows is a feature's label, drawn once (943 pixels of basemap names before)", async () => {
    expect(await basemapLabelPixels(README_EXAMPLE)).toBe(0);
  });

  it('are drawn as ever on the same map without labelField', async () => {
    const { labelField: _, ...unlabelled } = README_EXAMPLE;
    expect(await basemapLabelPixels(unlabelled)).toBeGreaterThan(500);
  });

  it("stay where no feature label collides with them or writes their name: Africa's countries named, the rest of the world's kept", async () => {
    expect(await basemapLabelPixels({ ...README_EXAMPLE, where: "REGION='Africa'", legend: 0 })).toBeGreaterThan(500);
  });
});
