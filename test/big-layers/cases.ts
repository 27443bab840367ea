/**
 * The rows of expectations.ts for one kind of layer, as tests: the layers written by GDAL
 * (test/support/big-layers.ts), a server for each configuration the rows name, each as its
 * own process over a transparent basemap. Each row sends its request beside busy loops on
 * every core, while another process polls the server's /health; a drawn picture's painted
 * pixels (alpha > 0) are compared with the pixels the same features, as GDAL reads them,
 * touch in the same frame (test/support/reference-masks.ts), a refusal's words with the
 * limit it names. A line per row is printed when the file ends: status, times, IoU, /health.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BIG_LAYERS, bigLayers, layerExtent, layerPath, selectionExtent, type LayerKind } from '../support/big-layers.ts';
import { startBigLayersServer, type Answer, type BigLayersServer } from '../support/big-layers-server.ts';
import { startCpuHogs, type CpuHogs } from '../support/cpu-hog.ts';
import {
  compareWithReference,
  extentOfVertices,
  polygonReference,
  reachReference,
  readVertices,
  type Comparison,
  type LayerSelection,
} from '../support/reference-masks.ts';
import { describeHealth, startHealthPoll, type HealthPoll } from '../support/health-poll.ts';
import { imageFrame, mapFrame, type Frame } from '../support/picture-frame.ts';
import { decodePng, type DecodedPng } from '../support/png.ts';
import { removeTempDirs } from '../support/temp-dir.ts';
import { CASES, HEALTH_WITHIN_MS, MIN_IOU, SERVER_LIMITS, type BigLayerCase, type Refusal, type ServerName } from './expectations.ts';

/** Both sides of every picture, in pixels. */
const SIZE = 1000;
/** A point symbol's radius (the default pointSize), in pixels. */
const POINT_RADIUS = 5;
/** Writing a layer of a million features took ogr2ogr 10–20 s here; servers start in seconds. */
const SETUP_TIMEOUT_MS = 300_000;

/**
 * The lineWidth each picture is drawn with: polygons as their fill alone; lines 2 px wide;
 * points with their default outline (2 px). Not 1 px lines: resvg paints strokes of a pixel
 * or less with its hairline rasterizer, which leaves a tenth of the pixels such a stroke
 * covers (by up to half a pixel) unpainted: a drawing of every line, but not of the stroke
 * the reference describes (IoU about 0.9 on 10,000 lines).
 */
function lineWidthOf({ kind }: BigLayerCase): number | undefined {
  if (kind === 'polygons') return 0;
  if (kind === 'lines') return 2;
  return undefined;
}

/** How far the paint reaches beyond the geometry, in pixels: half a stroke; a symbol's radius and half its outline. */
function reachOf(testCase: BigLayerCase): number {
  const lineWidth = lineWidthOf(testCase) ?? 2;
  if (testCase.kind === 'polygons') return 0;
  if (testCase.kind === 'lines') return lineWidth / 2;
  return POINT_RADIUS + lineWidth / 2;
}

function queryOf(testCase: BigLayerCase): Record<string, string | number> {
  const lineWidth = lineWidthOf(testCase);
  return {
    file: testCase.layer,
    ...(testCase.route === 'images' ? { where: testCase.where!, singleImage: 1 } : {}),
    size: `${SIZE},${SIZE}`,
    format: 'png',
    ...(lineWidth === undefined ? {} : { lineWidth }),
  };
}

function titleOf(testCase: BigLayerCase): string {
  const picture = testCase.route === 'map' ? `the whole-file map of ${testCase.layer}` : `one image of ${testCase.layer} where ${testCase.where}`;
  const server = testCase.server === 'defaults' ? 'default limits' : `limits ${JSON.stringify(SERVER_LIMITS[testCase.server])}`;
  const outcome = testCase.outcome === 'drawn' ? `is drawn whole (IoU ≥ ${MIN_IOU} against GDAL)` : `is refused with a 400 naming ${testCase.outcome.refused.limit}`;
  return `${picture} (${server}) ${outcome}, /health answering within ${HEALTH_WITHIN_MS} ms`;
}

function timeoutOf(testCase: BigLayerCase): number {
  const features = BIG_LAYERS[testCase.layer].features;
  return features >= 1_000_000 ? 240_000 : features >= 100_000 ? 180_000 : 90_000;
}

/** The pixels a picture paints: any alpha (the basemap is transparent; a map's polygons are filled at 20 % opacity, their faintest anti-aliased pixels at alpha 3). */
function paintedMask(image: DecodedPng): Uint8Array {
  const mask = new Uint8Array(image.width * image.height);
  for (let i = 0; i < mask.length; i++) mask[i] = image.data[i * 4 + 3] > 0 ? 1 : 0;
  return mask;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function errorDetails(answer: Answer): string {
  const text = new TextDecoder().decode(answer.body);
  try {
    return String((JSON.parse(text) as { ErrorDetails?: unknown }).ErrorDetails);
  } catch {
    return text.slice(0, 300);
  }
}

function describeComparison(comparison: Comparison): string {
  return (
    `IoU ${comparison.iou.toFixed(4)} (against ALL_TOUCHED alone ${comparison.iouTouched.toFixed(4)}): ${comparison.painted} pixels painted, ` +
    `${comparison.touched} touched and ${comparison.required} required by GDAL; ${comparison.requiredUnpainted} required left unpainted, ` +
    `${comparison.paintedUntouched} painted where no shape is`
  );
}

/**
 * A small map, image and where= selection, so that what a server does once (its first map's
 * basemap and font, code run for the first time: a fresh server's first map stalled its event
 * loop ~120 ms here) is done before the rows time its event loop: they are about big layers,
 * not about a cold start.
 */
async function warmUp(server: BigLayersServer, layer: string): Promise<void> {
  for (const [route, query] of [
    ['map', { file: layer, fid: 0 }],
    ['images', { file: layer, fid: 0 }],
    ['images', { file: layer, where: 'v < 2', singleImage: 1 }],
  ] as const) {
    const answer = await server.get(route, { ...query, size: '64,64', format: 'png' });
    if (answer.status !== 200) throw new Error(`warming up, ${route} of ${layer} answered ${answer.status}: ${errorDetails(answer)}`);
  }
}

/** What a drawn row's reference needs, read before the request: the frame, and (lines, points) the vertices GDAL reads. */
interface Expected {
  selection: LayerSelection;
  frame: Frame;
  vertices?: Float64Array[];
}

async function expectedOf(testCase: BigLayerCase): Promise<Expected> {
  const images = testCase.route === 'images';
  const selection: LayerSelection = { shp: await layerPath(testCase.layer), layer: testCase.layer, ...(images ? { where: testCase.where } : {}) };
  const vertices = testCase.kind === 'polygons' ? undefined : await readVertices(selection);
  if (!images) return { selection, vertices, frame: mapFrame(await layerExtent(testCase.layer), SIZE, SIZE) };
  // An image is fitted to its features' own extent.
  const extent = vertices ? extentOfVertices(vertices) : await selectionExtent(testCase.layer, testCase.where!);
  return { selection, vertices, frame: imageFrame(extent, SIZE, SIZE) };
}

/** Holds a drawn picture to its reference; returns the summary's words. */
async function checkDrawn(testCase: BigLayerCase, answer: Answer, expected: Expected, healthLine: string): Promise<string> {
  expect.soft(answer.status, `${errorDetails(answer)}\n${healthLine}`).toBe(200);
  if (answer.status !== 200) return `(${errorDetails(answer)})`;
  const image = decodePng(answer.body);
  expect([image.width, image.height]).toEqual([SIZE, SIZE]);
  const { selection, frame, vertices } = expected;
  const reference = vertices ? reachReference(vertices, frame, reachOf(testCase)) : await polygonReference(selection, frame);
  const comparison = compareWithReference(paintedMask(image), reference);
  // A reference that requires nothing would pass a blank picture: the test would be wrong, not the drawing.
  expect(comparison.required, 'pixels the reference requires').toBeGreaterThan(0);
  expect.soft(comparison.iou, `${describeComparison(comparison)}\n${healthLine}`).toBeGreaterThanOrEqual(MIN_IOU);
  return `IoU ${comparison.iou.toFixed(4)} (ALL_TOUCHED alone ${comparison.iouTouched.toFixed(4)})`;
}

/** Holds a refusal to the limit its row names; returns the summary's words. */
function checkRefused({ refused: { limit, max } }: Refusal, answer: Answer, healthLine: string): string {
  const details = errorDetails(answer);
  expect.soft(answer.status, `${details}\n${healthLine}`).toBe(400);
  expect.soft(details).toContain(limit);
  expect.soft(details).toMatch(new RegExp(`\\b${max}\\b|${max.toLocaleString('en-US')}`));
  return `(${details})`;
}

/** Registers the rows of `kind` as this file's tests. */
export function bigLayerSuite(kind: LayerKind): void {
  const cases = CASES.filter((testCase) => testCase.kind === kind);
  const layers = [...new Set(cases.map((testCase) => testCase.layer))];
  const servers: Partial<Record<ServerName, { server: BigLayersServer; health: HealthPoll }>> = {};
  const hogsRunning = new Set<CpuHogs>();
  const summary: string[] = [];

  beforeAll(async () => {
    const { dataDir, making } = await bigLayers(layers);
    for (const [name, made] of Object.entries(making)) {
      summary.push(`${name}: ${made.madeNow ? 'written now' : 'found written'}, in ${made.seconds.toFixed(1)} s`);
    }
    await Promise.all(
      [...new Set(cases.map((testCase) => testCase.server))].map(async (name) => {
        const server = await startBigLayersServer(dataDir, SERVER_LIMITS[name]);
        await warmUp(server, layers[0]);
        servers[name] = { server, health: await startHealthPoll(server.origin, server.server.process.pid) };
      }),
    );
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.all([...hogsRunning].map((hogs) => hogs.stop()));
    for (const { server, health } of Object.values(servers)) {
      health.stop();
      server.stop();
    }
    removeTempDirs();
    console.log(`${kind}:\n  ${summary.join('\n  ')}`);
  });

  for (const testCase of cases) {
    const title = titleOf(testCase);
    it(title, async () => {
      const { server, health: poll } = servers[testCase.server]!;
      const started = performance.now();
      // What the reference needs of the layer comes first: nothing of the test's own runs while /health is timed.
      const expected = testCase.outcome === 'drawn' ? await expectedOf(testCase) : undefined;
      const requested = performance.now();
      // The server works beside busy loops on every core; the test's own work (GDAL, decoding, masks) runs without them.
      const hogs = await startCpuHogs();
      hogsRunning.add(hogs);
      const { result: answer, health } = await poll.during(title, () => server.get(testCase.route, queryOf(testCase))).finally(async () => {
        await hogs.stop();
        hogsRunning.delete(hogs);
      });
      const answered = performance.now();
      const healthLine = describeHealth(health);
      const outcome = testCase.outcome === 'drawn' ? await checkDrawn(testCase, answer, expected!, healthLine) : checkRefused(testCase.outcome, answer, healthLine);
      summary.push(
        `${testCase.route} ${testCase.layer}${testCase.where ? ` where ${testCase.where}` : ''} (${testCase.server}): ${answer.status} in ${seconds(answer.ms)}; ` +
          `${outcome}; /health max ${health.maxMs?.toFixed(0)} ms over ${health.answers} answers (as timed ${health.rawMaxMs?.toFixed(0)} ms, ` +
          `the poller held up ≤ ${health.pollerHeldMaxMs.toFixed(0)} ms), event-loop lag max ${health.eventLoopLagMaxMs?.toFixed(0)} ms; ` +
          `the test's own work ${seconds(requested - started)} before and ${seconds(performance.now() - answered)} after; ` +
          `with the loops and the poll ${seconds(answered - requested)}`,
      );
      expect.soft(health.failed, healthLine).toEqual([]);
      expect.soft(health.slow, healthLine).toEqual([]);
    }, timeoutOf(testCase));
  }
}
