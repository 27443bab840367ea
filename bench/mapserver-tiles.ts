/**
 * MapServer 8's tile mode, the tiles benchmark's peer (bench/tiles.ts), run as the peer kit runs
 * it (its README, "Tiles: MapServer's tile mode as the peer"; run-peers.sh): `mapserv` FastCGI
 * processes sharing one unix socket, started and reaped by the kit's tools/fcgi_pool.py, behind
 * one nginx worker on a loopback port, with the kit's mapserver/tiles.map pointed at our copy of
 * the data. Every process is a child of this one and is stopped by its PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../test/support/nginx.ts';
import { PYTHON, type Tile } from './tile-data.ts';

const NGINX = '/usr/sbin/nginx';
const MAPSERV = '/usr/bin/mapserv';
const CLOCK_TICKS_PER_SECOND = 100;
/** mapserv 8.0 ignores SIGTERM while idle in FCGI_Accept(): the pool kills it after 2 s, we after this. */
const STOP_WITHIN_MS = 6_000;

export interface MapServerTiles {
  origin: string;
  /** A tile's path: `mode=tile&tilemode=gmap` on the layer `big`, a PNG or (`mvt`) a vector tile. */
  path(tile: Tile, format: 'png' | 'mvt'): string;
  /** CPU time (user + system) of nginx and every mapserv process so far, in ms. */
  cpuMs(): number;
  stop(): Promise<void>;
}

export interface MapServerTilesOptions {
  kitDir: string;
  /** MapServer's SHAPEPATH: the folder that holds big.shp and its .qix. */
  dataDir: string;
  /** Where its mapfile, configuration, socket, nginx configuration and logs are written. */
  runDir: string;
  /** mapserv FastCGI processes (the kit's FCGI_PROCS: 2 × the CPUs). */
  processes: number;
  /** A tile whose PNG tells that the whole chain answers. */
  probe: Tile;
}

export async function startMapServerTiles({ kitDir, dataDir, runDir, processes, probe }: MapServerTilesOptions): Promise<MapServerTiles> {
  mkdirSync(runDir, { recursive: true });
  const mapfile = join(runDir, 'tiles.map');
  const kitMap = readFileSync(join(kitDir, 'mapserver', 'tiles.map'), 'utf8');
  if (!/^\s*SHAPEPATH\s+"[^"]*"/m.test(kitMap)) throw new Error(`${join(kitDir, 'mapserver', 'tiles.map')} has no SHAPEPATH line to point at the data`);
  // MapServer reads EDGE_BUFFER in pixels of its 256-px tile: the kit's 64 clips 1,024 of 4,096
  // units past the edge, 16 times our buffer of 64 units (4 px: docs/tiles.md); the same 4 px here.
  const pointed = kitMap.replace(/^(\s*)SHAPEPATH\s+"[^"]*"/m, `$1SHAPEPATH "${dataDir}"`);
  writeFileSync(mapfile, pointed.replace(/"EDGE_BUFFER=\d+"/, '"EDGE_BUFFER=4"'));
  const config = join(runDir, 'mapserver.conf');
  writeFileSync(config, `CONFIG\n  ENV\n    MS_MAP_NO_PATH "1"\n  END\n  MAPS\n    TILES "${mapfile}"\n  END\nEND\n`);

  const socket = join(runDir, 'mapserv.sock');
  const children: ChildProcess[] = [];
  let mapservPids: number[] = [];
  const stop = async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(children.map((child) => exitedWithin(child, STOP_WITHIN_MS)));
    // The pool reaps its mapserv processes and exits 0; if it was killed instead, the mapserv
    // processes it left are killed here (checked by name: their PIDs may have been reused).
    if (children[0]?.exitCode !== 0) for (const pid of mapservPids.filter(isMapserv)) process.kill(pid, 'SIGKILL');
  };

  try {
    const pool = spawn(PYTHON, [join(kitDir, 'tools', 'fcgi_pool.py'), socket, String(processes), MAPSERV], {
      env: { ...process.env, MAPSERVER_CONFIG_FILE: config },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(pool);
    mapservPids = await poolPids(pool);

    const port = await freePort();
    const nginxConf = join(runDir, 'nginx.conf');
    mkdirSync(join(runDir, 'nginx-tmp'), { recursive: true });
    writeFileSync(nginxConf, nginxConfig(runDir, port, config, socket));
    const nginx = spawn(NGINX, ['-p', `${runDir}/`, '-c', nginxConf], { stdio: ['ignore', 'ignore', 'pipe'] });
    children.push(nginx);
    let nginxErrors = '';
    nginx.stderr!.on('data', (chunk) => (nginxErrors += String(chunk)));

    const origin = `http://127.0.0.1:${port}`;
    const path = ({ z, x, y }: Tile, format: 'png' | 'mvt') =>
      `/cgi-bin/mapserv?map=TILES&mode=tile&tilemode=gmap&tile=${x}+${y}+${z}&layers=big${format === 'mvt' ? '&map.imagetype=mvt' : ''}`;
    await answers(`${origin}${path(probe, 'png')}`, () => {
      if (nginx.exitCode !== null) throw new Error(`nginx stopped at start-up: ${nginxErrors}`);
      if (pool.exitCode !== null) throw new Error('fcgi_pool.py stopped at start-up');
    });
    const nginxPid = nginx.pid!;
    return {
      origin,
      path,
      cpuMs: () => [nginxPid, ...childrenOf(nginxPid), ...mapservPids].reduce((sum, pid) => sum + processCpuMs(pid), 0),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The kit's nginx front (run-peers.sh, start_nginx): one worker, FastCGI to the socket, loopback only. */
function nginxConfig(runDir: string, port: number, config: string, socket: string): string {
  const temp = join(runDir, 'nginx-tmp');
  return `
worker_processes 1;
daemon off;
pid ${join(runDir, 'nginx.pid')};
error_log ${join(runDir, 'nginx-error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${temp}/body;
  fastcgi_temp_path ${temp}/fcgi;
  proxy_temp_path ${temp}/proxy;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
  server {
    listen 127.0.0.1:${port};
    location = /cgi-bin/mapserv {
      include /etc/nginx/fastcgi_params;
      fastcgi_param MAPSERVER_CONFIG_FILE ${config};
      fastcgi_pass unix:${socket};
    }
  }
}
`;
}

/** The mapserv PIDs from the pool's first line ("fcgi_pool: N x CMD on SOCKET, pids A B ..."). */
function poolPids(pool: ChildProcess): Promise<number[]> {
  return new Promise((resolve, reject) => {
    let text = '';
    let errors = '';
    pool.stderr!.on('data', (chunk) => (errors += String(chunk)));
    pool.stdout!.on('data', (chunk) => {
      text += String(chunk);
      const pids = /pids ([\d ]+)\n/.exec(text)?.[1];
      if (pids) resolve(pids.trim().split(/\s+/).map(Number));
    });
    pool.once('exit', (code) => reject(new Error(`fcgi_pool.py exited (code ${code}) before starting mapserv: ${errors}`)));
  });
}

/** Waits until `url` answers 200; `check` throws when a process it needs has stopped. */
async function answers(url: string, check: () => void): Promise<void> {
  const started = performance.now();
  let last = '';
  for (;;) {
    check();
    try {
      const response = await fetch(url);
      const body = new Uint8Array(await response.arrayBuffer());
      if (response.status === 200) return;
      last = `${response.status}: ${new TextDecoder().decode(body).slice(0, 300)}`;
    } catch (error) {
      last = String(error);
    }
    if (performance.now() - started > 30_000) throw new Error(`MapServer did not answer ${url} within 30 s (last: ${last})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function exitedWithin(child: ChildProcess, ms: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Whether `pid` is a live mapserv process (not exited, not a zombie). */
function isMapserv(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.includes('(mapserv)') && stat[stat.lastIndexOf(') ') + 2] !== 'Z';
  } catch {
    return false;
  }
}

/** nginx's worker: the processes whose parent is its master. */
function childrenOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(') ') + 2).split(' ')[1]) === parent;
      } catch {
        return false;
      }
    })
    .map(Number);
}

function processCpuMs(pid: number): number {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return 0; // exited
  }
  const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}
