/**
 * Clients that stop reading, and answers large enough that the operating system's socket
 * buffers cannot take them whole, so that the server must hold the rest: for the tests of
 * what a server does with answers nobody reads (limits.writeStallMs and
 * limits.maxPendingAnswerBytes).
 */

/**
 * Fields for /ogc pages of 1,000 points past what a loopback connection's buffers could ever
 * take (Linux may grow a receive buffer up to net.ipv4.tcp_rmem's maximum, 32 MB on some
 * machines, and a send buffer to tcp_wmem's, 4 MB): some 52 MB a page.
 */
export const PAST_SOCKET_BUFFERS_FIELDS = 200;
/**
 * Such pages are past the default limits.maxAnswerBytes: the tests are about what happens to
 * an answer once it is made, so their servers allow it.
 */
export const LARGE_ANSWER_BYTES = 128 * 1024 * 1024;
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { createShapefileWriter } from '../../scripts/lib/shapefile-writer.ts';
import { ShapeType } from '../../src/shapefile/types.ts';
import { WGS84_PRJ } from './fixtures.ts';

/** A .dbf text field's widest. */
const FIELD_BYTES = 254;

/**
 * Writes `name`.shp in `dir`: `count` points, each with `fields` text fields filled to their
 * 254 bytes, so that an /ogc page of 1,000 of them is some `fields` × 260 KB of GeoJSON.
 */
export function writeWidePoints(dir: string, name: string, { count, fields }: { count: number; fields: number }): void {
  const names = Array.from({ length: fields }, (_, i) => `F${String(i).padStart(3, '0')}`);
  const writer = createShapefileWriter(join(dir, name), {
    shapeType: ShapeType.Point,
    fields: names.map((field) => ({ name: field, type: 'C', length: FIELD_BYTES })),
    prj: WGS84_PRJ,
  });
  for (let i = 0; i < count; i++) {
    const text = `${i} `.padEnd(FIELD_BYTES, 'abcdefghij');
    writer.write({ type: 'Point', coordinates: [(i % 360) - 180 + 0.5, ((i * 7) % 170) - 85 + 0.5] }, Object.fromEntries(names.map((field) => [field, text])));
  }
  writer.close();
}

/** A client that asked for an answer, read its first chunk and then stopped reading. */
export interface StalledClient {
  socket: Socket;
  status: number;
  /** The answer's Content-Length, as its head announced it (NaN without one). */
  contentLength: number;
  /** Reads again, to the end of the connection: the bytes of the answer's body it got. */
  readToEnd(): Promise<{ bodyBytes: number }>;
}

/** Sends GET `path` to `origin` and stops reading once the first chunk of the answer has come. */
export function stallingClient(origin: string, path: string, headers: Record<string, string> = {}): Promise<StalledClient> {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  // Connection: close, so that an answer written in full ends with the connection, as one cut short does.
  const head = Object.entries({ Host: `${hostname}:${port}`, Connection: 'close', ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  socket.write(`GET ${path} HTTP/1.1\r\n${head}\r\n`);
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('data', (first: Buffer) => {
      socket.pause();
      socket.off('error', reject);
      const text = first.toString('latin1');
      const headEnd = text.indexOf('\r\n\r\n');
      const status = Number(text.split(' ', 2)[1]);
      const contentLength = Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, headEnd))?.[1] ?? Number.NaN);
      let bodyBytes = first.length - (headEnd + 4);
      resolve({
        socket,
        status,
        contentLength,
        readToEnd: () =>
          new Promise((done) => {
            socket.on('data', (chunk: Buffer) => (bodyBytes += chunk.length));
            // A connection cut off may end in a reset: its close is the end all the same.
            socket.on('error', () => {});
            socket.once('close', () => done({ bodyBytes }));
            socket.resume();
          }),
      });
    });
  });
}
