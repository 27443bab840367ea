/**
 * A real Redis (Debian's redis-server, or the one REDIS_SERVER names) on a loopback port,
 * nothing kept on disk (`--save '' --appendonly no`), for the limits shared by instances
 * (docs/configuration.md, "Limits shared by instances"). The test can stop it and start it
 * again on the same port (an outage, then the store back, empty as a restarted Redis without
 * persistence is), or freeze it (SIGSTOP: connections stay open, nothing answers, as a
 * stalled server or a network that drops packets) and thaw it. Starting waits for the
 * server's own "Ready to accept connections" line, never for a time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { freePort } from './nginx.ts';

const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

export interface RedisServer {
  /** redis://127.0.0.1:<port> */
  url: string;
  port: number;
  /** A client of the test's own, to look at or change what the store holds. */
  client(): Redis;
  /** Stops the server (SIGTERM) and resolves once it has exited. */
  stop(): Promise<void>;
  /** Starts it again on the same port; resolves once it accepts connections. */
  start(): Promise<void>;
  /** SIGSTOP: the server holds its connections and answers nothing until thaw(). */
  freeze(): void;
  thaw(): void;
}

export async function startRedisServer(): Promise<RedisServer> {
  if (!existsSync(REDIS_SERVER)) {
    throw new Error(`The shared-limits tests need redis-server at ${REDIS_SERVER}. Install it (Debian/Ubuntu: apt-get install redis-server), or set REDIS_SERVER to its path.`);
  }
  const port = await freePort();
  const clients: Redis[] = [];
  let running: ChildProcess | undefined;
  let frozen = false;

  const start = async () => {
    const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'notice'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running = child;
    await new Promise<void>((resolve, reject) => {
      let said = '';
      const onOutput = (chunk: Buffer) => {
        said += String(chunk);
        if (said.includes('Ready to accept connections')) {
          child.stdout!.off('data', onOutput);
          child.stdout!.resume();
          child.off('exit', onExit);
          resolve();
        }
      };
      const onExit = (code: number | null) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${said}`));
      child.stdout!.on('data', onOutput);
      child.stderr!.on('data', (chunk: Buffer) => void (said += String(chunk)));
      child.once('exit', onExit);
    });
  };
  await start();

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    client() {
      const client = new Redis(port, '127.0.0.1');
      clients.push(client);
      return client;
    },
    async stop() {
      const child = running;
      running = undefined;
      if (child === undefined || child.exitCode !== null) return;
      for (const client of clients.splice(0)) client.disconnect();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      if (frozen) child.kill('SIGCONT');
      frozen = false;
      child.kill('SIGTERM');
      await exited;
    },
    start,
    freeze() {
      frozen = true;
      running?.kill('SIGSTOP');
    },
    thaw() {
      frozen = false;
      running?.kill('SIGCONT');
    },
  };
}
