/**
 * A real WMS server on loopback: MapServer's CGI program run once per request, as a web
 * server would run it, over a mapfile the test writes. Needs /usr/bin/mapserv (Debian
 * package mapserver-bin, which cgi-mapserver installs too; another path in the MAPSERV
 * environment variable): without it the tests that start this server fail, saying so,
 * rather than skip.
 */
import { execFile, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const MAPSERV = process.env.MAPSERV ?? '/usr/bin/mapserv';

export interface WmsServer {
  /**
   * The WMS endpoint, http://127.0.0.1:<port>/wms. Beside it /html answers 200 with a web
   * page, as a captive portal or a misconfigured proxy would, and any other path 404.
   */
  url: string;
  /** Every request received, in order. */
  requests: { query: URLSearchParams; headers: IncomingHttpHeaders }[];
  /** While true, answers wait for release(): a server too slow for as long as the test needs, on any machine. */
  holding: boolean;
  /** Sends the answers held so far, and stops holding. */
  release(): void;
  /** Resolves when the server next receives a request. */
  nextRequest(): Promise<void>;
  close(): Promise<void>;
}

/** Checks that mapserv runs and serves WMS, with a message saying what to install when not. */
export async function checkMapserv(): Promise<void> {
  let version: string;
  try {
    version = (await promisify(execFile)(MAPSERV, ['-v'], { env: { PATH: process.env.PATH } })).stdout;
  } catch (error) {
    throw new Error(
      `The WMS tests need MapServer's CGI program at ${MAPSERV}, which cannot run (${(error as Error).message}). ` +
        'Install it (Debian/Ubuntu: apt-get install mapserver-bin), or set MAPSERV to its path.',
    );
  }
  if (!version.includes('SUPPORTS=WMS_SERVER')) throw new Error(`${MAPSERV} is built without WMS server support: ${version.trim()}`);
}

/** Serves `mapfile` as a WMS at a loopback port. */
export async function startWmsServer(mapfile: string): Promise<WmsServer> {
  await checkMapserv();
  // MapServer 8 will not start without a configuration file; an empty one allows MS_MAPFILE.
  const configFile = join(dirname(mapfile), 'mapserver.conf');
  writeFileSync(configFile, 'CONFIG\n  ENV\n  END\nEND\n');

  const held: (() => void)[] = [];
  const requestWatchers: (() => void)[] = [];
  const state: WmsServer = {
    url: '',
    requests: [],
    holding: false,
    release() {
      state.holding = false;
      for (const send of held.splice(0)) send();
    },
    nextRequest: () => new Promise((resolve) => requestWatchers.push(resolve)),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    state.requests.push({ query: url.searchParams, headers: request.headers });
    for (const resolve of requestWatchers.splice(0)) resolve();
    if (url.pathname === '/html') {
      response.writeHead(200, { 'Content-Type': 'text/html' }).end('<html><body>Please log in.</body></html>');
      return;
    }
    if (url.pathname !== '/wms') {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const { port } = server.address() as AddressInfo;
    const cgiEnvironment = {
      PATH: process.env.PATH,
      GATEWAY_INTERFACE: 'CGI/1.1',
      REQUEST_METHOD: 'GET',
      QUERY_STRING: url.search.slice(1),
      SCRIPT_NAME: '/wms',
      SERVER_NAME: '127.0.0.1',
      SERVER_PORT: String(port),
      SERVER_PROTOCOL: 'HTTP/1.1',
      MAPSERVER_CONFIG_FILE: configFile,
      MS_MAPFILE: mapfile,
    };
    const answer = runCgi(cgiEnvironment);
    const send = () =>
      answer.then(
        ({ status, contentType, body }) => response.writeHead(status, { 'Content-Type': contentType }).end(body),
        (error: Error) => response.writeHead(502, { 'Content-Type': 'text/plain' }).end(error.message),
      );
    if (state.holding) held.push(send);
    else send();
  });
  server.keepAliveTimeout = 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wms`;
  return state;
}

interface CgiAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

/** Runs mapserv once and splits its output into the CGI header block and the body. */
function runCgi(env: Record<string, string | undefined>): Promise<CgiAnswer> {
  return new Promise((resolve, reject) => {
    const child = spawn(MAPSERV, [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const output = Buffer.concat(stdout);
      const end = headerEnd(output);
      if (end === undefined) {
        reject(new Error(`mapserv exited with ${code} and no CGI headers: ${Buffer.concat(stderr).toString().trim()}`));
        return;
      }
      const headers = new Map<string, string>();
      for (const line of output.subarray(0, end.headers).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      resolve({
        // A CGI program sets the HTTP status with a Status header; without one it is 200.
        status: Number.parseInt(headers.get('status') ?? '200', 10),
        contentType: headers.get('content-type') ?? 'application/octet-stream',
        body: output.subarray(end.body),
      });
    });
  });
}

/** Where the header block ends (a blank line, CRLF or LF) and the body starts. */
function headerEnd(output: Buffer): { headers: number; body: number } | undefined {
  const crlf = output.indexOf('\r\n\r\n');
  const lf = output.indexOf('\n\n');
  if (crlf >= 0 && (lf < 0 || crlf < lf)) return { headers: crlf, body: crlf + 4 };
  return lf >= 0 ? { headers: lf, body: lf + 2 } : undefined;
}
