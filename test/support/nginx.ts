/**
 * A real nginx (Debian's nginx-light, /usr/sbin/nginx) serving a folder on a loopback port,
 * as an operator would serve shapefiles over HTTP: `autoindex on; autoindex_format json;` for
 * the catalog, Range support as nginx has it by default. Its access log is the test's count
 * of the requests nginx saw (method, URI, Range header, status). One process, no master
 * (`master_process off`): it runs as the test's user and reads the test's temp folder.
 *
 * `nginxAvailable` lets a suite skip, saying so, where nginx is not installed (CI installs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { join } from 'node:path';
import { makeTempDir } from './temp-dir.ts';
import { until } from './until.ts';

/** Debian's nginx-light, or the one NGINX names. */
const NGINX = process.env.NGINX ?? '/usr/sbin/nginx';

export interface LoggedRequest {
  method: string;
  uri: string;
  /** The Range header, '-' when none was sent. */
  range: string;
  status: number;
}

export interface Nginx {
  /** The folder's URL, ending in '/'. */
  url: string;
  port: number;
  /** The requests nginx has logged so far, oldest first. */
  requests(): LoggedRequest[];
  stop(): Promise<void>;
}

/** A port free on loopback now (nginx cannot listen on port 0 and tell which it got). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** nginx serving `folder` at http://127.0.0.1:<port>/files/. */
export async function startNginx(folder: string): Promise<Nginx> {
  // A real peer, as mapserv and ogr2ogr are: missing, the data-source tests fail saying so rather than pass unrun.
  if (!existsSync(NGINX)) throw new Error(`The data-source tests need nginx at ${NGINX}. Install it (Debian/Ubuntu: apt-get install nginx-light), or set NGINX to its path.`);
  const prefix = makeTempDir('shapeshot-nginx-');
  mkdirSync(join(prefix, 'logs'));
  const accessLog = join(prefix, 'logs', 'access.log');
  const port = await freePort();
  writeFileSync(
    join(prefix, 'nginx.conf'),
    `
master_process off;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'logs', 'error.log')} warn;
events { worker_connections 64; }
http {
  client_body_temp_path ${join(prefix, 'body')};
  proxy_temp_path ${join(prefix, 'proxy')};
  fastcgi_temp_path ${join(prefix, 'fastcgi')};
  uwsgi_temp_path ${join(prefix, 'uwsgi')};
  scgi_temp_path ${join(prefix, 'scgi')};
  log_format counted '$request_method $uri $http_range $status';
  access_log ${accessLog} counted;
  server {
    listen 127.0.0.1:${port};
    location /files/ {
      alias ${folder.endsWith('/') ? folder : `${folder}/`};
      autoindex on;
      autoindex_format json;
    }
  }
}
`,
  );
  const child: ChildProcess = spawn(NGINX, ['-p', prefix, '-c', join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let running = true;
  void exited.then(() => (running = false));
  await until(async () => {
    if (!running) throw new Error(`nginx stopped at start-up: ${stderr}`);
    return accepts(port);
  });
  return {
    url: `http://127.0.0.1:${port}/files/`,
    port,
    requests: () =>
      (existsSync(accessLog) ? readFileSync(accessLog, 'utf8') : '')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
          const [method, uri, ...rest] = line.split(' ');
          const status = Number(rest.pop());
          return { method, uri, range: rest.join(' '), status };
        }),
    async stop() {
      if (running) child.kill('SIGTERM');
      await exited;
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
