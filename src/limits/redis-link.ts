/**
 * The connection to the shared limits store (limits.store) and whether it answers
 * (docs/configuration.md, "Limits shared by instances"). No request waits on Redis past
 * limits.storeDeadlineMs: a call fails at once while the connection is down (ioredis keeps
 * no queue of commands to send later, and retries none), and one that is late counts as
 * failed. The first failure puts the store down: one warning, and every request counts on
 * this instance without asking Redis, while a ping each PROBE_MS (and each reconnection,
 * which ioredis makes in the background) asks whether it answers again; the first answer
 * puts it up, with one line more.
 */
import { setImmediate } from 'node:timers';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

export interface RedisLink {
  readonly client: Redis;
  /** The store's URL without its user or password: what logs and /ready may show. */
  readonly described: string;
  /**
   * `call`'s answer; undefined when the store is down, fails or answers past the deadline
   * (then `late` gets the answer if it ever comes, to undo what it did).
   */
  attempt<T>(call: (client: Redis) => Promise<T>, late?: (answer: T) => void): Promise<T | undefined>;
  isUp(): boolean;
  /** Calls that failed or were late, since start-up. */
  failures(): number;
  /** Runs `listener` each time the store answers again after being down. */
  onUp(listener: () => void): void;
  close(): Promise<void>;
}

/** How often a store that is down is asked whether it answers again. */
const PROBE_MS = 500;
/** Reconnections are tried at once, then less often, up to once a second. */
const RECONNECT_MAX_MS = 1000;
/** How long start-up waits for a first connection before it goes on with the store down. */
const FIRST_CONNECTION_MS = 2000;

const LATE = Symbol('late');

/**
 * Connects to `url`; resolves once the store answered, or once it is known not to (the server
 * then starts with the store down). `failure` (limits.storeFailure) is what the log says
 * happens meanwhile.
 */
export async function connectRedis(url: string, { deadlineMs, failure }: { deadlineMs: number; failure: 'open' | 'closed' }, logger: Logger): Promise<RedisLink> {
  const described = withoutCredentials(url);
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout: FIRST_CONNECTION_MS,
    retryStrategy: (times) => Math.min(times * 100, RECONNECT_MAX_MS),
    connectionName: 'shapeshot',
  });
  let state: 'starting' | 'up' | 'down' = 'starting';
  let failed = 0;
  let prober: ReturnType<typeof setInterval> | undefined;
  let probing: Promise<void> | undefined;
  const upListeners: (() => void)[] = [];
  const isUp = () => state === 'up';

  const goDown = (reason: string) => {
    if (state === 'down') return;
    state = 'down';
    const meanwhile = failure === 'open' ? 'keys’ limits are counted on this instance alone' : 'requests of keys are refused (limits.storeFailure "closed")';
    logger.warn({ store: described, reason }, `the limits store does not answer: ${meanwhile} until it does`);
    prober = setInterval(() => void probe(), PROBE_MS);
    prober.unref?.();
  };
  const goUp = () => {
    if (state === 'up') return;
    const wasDown = state === 'down';
    state = 'up';
    clearInterval(prober);
    if (wasDown) logger.warn({ store: described }, 'the limits store answers again: limits are shared again');
    for (const listener of upListeners) listener();
  };
  /** Asks whether the store answers; one ping at a time, shared by who asks meanwhile. */
  const probe = () =>
    (probing ??= withinDeadline(client.ping(), deadlineMs)
      .then(
        (answer) => void (answer === 'PONG' && goUp()),
        () => undefined, // still down: the next probe asks again
      )
      .finally(() => {
        probing = undefined;
      }));

  // ioredis reports connection failures as 'error' events (which must be listened to) while it reconnects.
  client.on('error', (error: Error) => isUp() && goDown(error.message));
  client.on('close', () => isUp() && goDown('the connection closed'));
  client.on('ready', () => void probe());

  await firstContact(client);
  if (client.status === 'ready') await probe();
  if (isUp()) logger.info({ store: described }, 'keys’ limits are shared through the limits store');
  else goDown(`no answer within ${FIRST_CONNECTION_MS} ms of start-up`);

  return {
    client,
    described,
    async attempt(call, late) {
      if (!isUp()) return undefined;
      try {
        const answer = call(client);
        const outcome = await withinDeadline(answer, deadlineMs);
        if (outcome !== LATE) return outcome;
        if (late) answer.then(late, () => undefined);
        failed++;
        goDown(`no answer within ${deadlineMs} ms (limits.storeDeadlineMs)`);
      } catch (error) {
        failed++;
        goDown((error as Error).message);
      }
      return undefined;
    },
    isUp,
    failures: () => failed,
    onUp: (listener) => void upListeners.push(listener),
    async close() {
      clearInterval(prober);
      const wasUp = isUp();
      state = 'down';
      // QUIT is answered once what was sent before it is (the places given back as the last answers were written).
      if (wasUp) await withinDeadline(client.quit(), deadlineMs).catch(() => undefined);
      client.disconnect();
    },
  };
}

/** Resolves on the client's first connection or first failure to connect, or after FIRST_CONNECTION_MS. */
function firstContact(client: Redis): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      client.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, FIRST_CONNECTION_MS);
    client.once('ready', done);
    client.once('error', done);
  });
}

/**
 * `work`'s outcome, or LATE once `ms` have passed. Late only once the event loop has read what
 * came meanwhile: after a stall of the loop (a long GC, a busy machine) the timer runs before
 * the answer that came in time is read, and must not call the store late for it.
 */
function withinDeadline<T>(work: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<typeof LATE>((resolve) => {
    timer = setTimeout(() => setImmediate(resolve, LATE), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** redis://user:secret@host:6379/2 → redis://host:6379/2. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.toString();
}
