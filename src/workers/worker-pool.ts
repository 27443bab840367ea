/**
 * The main thread's side of a pool of worker threads, which knows no job kinds: the drawing
 * workers (jobs/job-pool.ts) and, through the SDK, plugins whose work would stall the event
 * loop (the embedded basemap) run on it. Queueing, cancellation over shared memory and replacing
 * a stuck worker live here; admission is the caller's (http/admission.ts).
 */
import { Worker } from 'node:worker_threads';
import { OverloadedError } from '../errors.ts';
import {
  cancellationMark,
  deserializeError,
  JOBS_PER_WORKER,
  type JobMessage,
  type ReadyMessage,
  type ReplyMessage,
  type WorkerStart,
} from './protocol.ts';
import { workerModule } from './worker-module.ts';

export interface WorkerPoolOptions<Options> {
  /** The worker module (TypeScript or JavaScript; see worker-module.ts); it answers jobs with serveJobs(). */
  entry: URL;
  /** Worker threads. */
  workers: number;
  /** Names the pool in error messages. */
  name: string;
  /** Handed to every worker (workerOptions() there). */
  options: Options;
  /**
   * A worker that has not given up a cancelled job after this long is stopped and
   * replaced (a native step that cannot look at the cancellation mark is still running).
   */
  stuckAfterMs?: number;
  /** Told what workers asked to have logged, and when one is replaced. */
  onNote?(text: string): void;
}

export interface RunOptions {
  /** Aborting it drops a waiting job, or asks a running one to stop; the job then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Buffers of the request to move to the worker rather than copy. */
  transfer?: ArrayBuffer[];
}

/** What the pool has done so far, and is doing. */
export interface PoolStats {
  /** Jobs waiting for a worker. */
  waiting: number;
  /** Jobs handed to a worker and not yet answered (a cancelled one until its worker has stopped it). */
  running: number;
  /** Jobs answered with their result, or with the error they failed with. */
  finished: number;
  /** Jobs a worker stopped, or never started, because they were cancelled. */
  cancelled: number;
  /**
   * How long a job handed in now would wait before a worker starts it, from the jobs ahead
   * of it and the rate at which workers have lately been answering; 0 while that rate is
   * unknown.
   */
  expectedWaitMs: number;
  /** Workers loaded and serving jobs (one that died is replaced when a job needs it). */
  workersReady: number;
  /** Milliseconds workers have spent at jobs, finished, failed or cancelled alike. */
  busyMs: number;
  /** What jobs counted (JobContext.count), summed over all jobs, by counter. */
  counts: Readonly<Record<string, number>>;
}

export interface WorkerPool {
  run<Result>(kind: string, request: unknown, options?: RunOptions): Promise<Result>;
  readonly stats: PoolStats;
  /**
   * Calls `listener` with the kind of each job as a worker is handed it (from then on
   * PoolStats.running counts it), until the returned function is called. Tests use it to
   * wait for a job to start (test/support/server.ts's nextJob) rather than guess how long
   * that takes; the service itself does not listen.
   */
  onJobHandedOver(listener: (kind: string) => void): () => void;
  /** Resolves once every worker has loaded and serves jobs. */
  ready(): Promise<void>;
  /** Refuses new jobs, finishes the accepted ones, then stops the workers. */
  close(): Promise<void>;
}

interface Job {
  id: number;
  kind: string;
  request: unknown;
  transfer: ArrayBuffer[];
  /** The job's number on the worker it was handed to. */
  seq: number;
  /** Its cancellation mark's index in the worker's `cancellation` (protocol.ts). */
  place: number;
  settled: boolean;
  cancelled: boolean;
  resolve(result: unknown): void;
  reject(error: unknown): void;
  detach(): void;
}

interface Slot {
  worker: Worker;
  /** One Int32 per job a worker may hold: the mark of a job to stop (protocol.ts). */
  cancellation: Int32Array;
  /** Jobs handed to the worker, in order: the first is running, the others wait in its port. */
  jobs: Job[];
  nextSeq: number;
  /** The worker has loaded and said so. */
  ready: boolean;
  stuckTimer?: ReturnType<typeof setTimeout>;
}

const DEFAULT_STUCK_AFTER_MS = 5_000;
/** Weight of the latest job in the running average of the time a job keeps a worker. */
const SERVICE_TIME_WEIGHT = 1 / 16;

/**
 * A fixed number of worker threads with a queue in front (admission is the caller's
 * business: see http/admission.ts). Each worker holds up to JOBS_PER_WORKER jobs: the one
 * it runs and the next, so that it goes on to the next job the moment it is done, without
 * waiting for this thread, which may be busy answering other connections. A job whose
 * signal aborts leaves the queue at once, or is stopped by its worker at its next
 * checkpoint (or before it starts); its promise rejects right away either way. A worker
 * that dies fails the job it was running and is replaced; the jobs it held go back to the
 * front of the queue, still cancelled by their signals.
 */
export function createWorkerPool<Options>(options: WorkerPoolOptions<Options>): WorkerPool {
  const slots = new Set<Slot>();
  const queue: Job[] = [];
  const unsettled = new Set<Promise<unknown>>();
  const stuckAfter = options.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS;
  let workerUrl: URL | undefined;
  let nextId = 1;
  let closed = false;
  let finished = 0;
  let cancelled = 0;
  let busyMs = 0;
  const counts: Record<string, number> = {};
  const handOverListeners = new Set<(kind: string) => void>();
  /** Milliseconds a job keeps a worker, on average over the recent ones; undefined before the first. */
  let serviceMs: number | undefined;

  function startWorker(url: URL): Slot {
    const cancellation = new SharedArrayBuffer(4 * JOBS_PER_WORKER);
    const start: WorkerStart<Options> = { cancellation, options: options.options };
    const slot: Slot = {
      worker: new Worker(url, { workerData: start }),
      cancellation: new Int32Array(cancellation),
      jobs: [],
      nextSeq: 0,
      ready: false,
    };
    slot.worker.unref();
    slot.worker.on('message', (message: ReplyMessage | ReadyMessage) => ('ready' in message ? onReady(slot) : onReply(slot, message)));
    slot.worker.on('error', (error) => replace(slot, String(error?.message ?? error)));
    slot.worker.on('exit', (code) => replace(slot, `exited with code ${code}`));
    slots.add(slot);
    return slot;
  }

  const readyWaiters: (() => void)[] = [];
  const allReady = () => slots.size >= options.workers && [...slots].every((slot) => slot.ready);

  function onReady(slot: Slot): void {
    slot.ready = true;
    if (allReady()) for (const resolve of readyWaiters.splice(0)) resolve();
    dispatch();
  }

  function onReply(slot: Slot, reply: ReplyMessage): void {
    const index = slot.jobs.findIndex((job) => job.id === reply.id);
    if (index < 0) return;
    const [job] = slot.jobs.splice(index, 1);
    job.detach();
    clearTimeout(slot.stuckTimer);
    slot.stuckTimer = undefined;
    if (slot.jobs.length === 0) slot.worker.unref();
    else if (slot.jobs[0].cancelled) watchForStuck(slot, slot.jobs[0]);
    for (const note of reply.notes ?? []) options.onNote?.(note);
    const counted = reply.counts ?? {};
    for (const name in counted) counts[name] = (counts[name] ?? 0) + counted[name];
    if (reply.ms !== undefined) {
      busyMs += reply.ms;
      serviceMs = serviceMs === undefined ? reply.ms : serviceMs + (reply.ms - serviceMs) * SERVICE_TIME_WEIGHT;
    }
    if ('cancelled' in reply) cancelled++;
    else finished++;
    if ('result' in reply) job.resolve(reply.result);
    else if ('failure' in reply) job.reject(deserializeError(reply.failure, options.name));
    else job.reject(new Error(`${options.name}: job ${job.id} was cancelled`));
    dispatch();
  }

  function replace(slot: Slot, reason: string): void {
    if (!slots.delete(slot)) return;
    clearTimeout(slot.stuckTimer);
    void slot.worker.terminate();
    const [running, ...held] = slot.jobs;
    const crashed = new Error(`${options.name} worker crashed: ${reason}`);
    running?.detach();
    running?.reject(crashed);
    // A job whose buffers went to the dead worker cannot be sent again.
    for (const job of held) {
      if (job.transfer.length === 0) continue;
      job.detach();
      job.reject(crashed);
    }
    // The others wait again, still listening to their signals: one whose request is
    // cancelled (its client gone, its time spent) while it waits leaves the queue as any
    // waiting job does, instead of running for nobody.
    queue.unshift(...held.filter((job) => !job.settled));
    // A worker that dies before it could serve would die again: with no other serving, the
    // waiting jobs fail with its reason rather than wait for a worker that never comes.
    if (!slot.ready && ![...slots].some((other) => other.ready)) for (const job of queue.splice(0)) job.reject(crashed);
    dispatch();
  }

  function assign(slot: Slot, job: Job): void {
    job.seq = slot.nextSeq++;
    job.place = freePlace(slot);
    slot.jobs.push(job);
    slot.worker.ref();
    const message: JobMessage = { id: job.id, seq: job.seq, place: job.place, kind: job.kind, request: job.request };
    try {
      slot.worker.postMessage(message, job.transfer);
    } catch (error) {
      slot.jobs.pop();
      job.detach();
      job.reject(error);
      return;
    }
    for (const listener of handOverListeners) listener(job.kind);
  }

  /** A cancellation place none of the worker's held jobs has (it holds fewer than JOBS_PER_WORKER). */
  function freePlace(slot: Slot): number {
    const taken = new Set(slot.jobs.map((held) => held.place));
    let place = 0;
    while (taken.has(place)) place++;
    return place;
  }

  /**
   * Hands waiting jobs to the ready workers holding the fewest. Only to ready ones: Deno
   * drops messages posted to a worker before it listens. A worker that died is replaced
   * here, when a job needs it, rather than at once: one that cannot start must not respawn
   * in a loop.
   */
  function dispatch(): void {
    if (workerUrl === undefined) return;
    while (queue.length > 0) {
      let least: Slot | undefined;
      for (const slot of slots) if (slot.ready && (!least || slot.jobs.length < least.jobs.length)) least = slot;
      if (least?.jobs.length !== 0 && slots.size < options.workers) startWorker(workerUrl);
      if (!least || least.jobs.length >= JOBS_PER_WORKER) return;
      // A worker on its way takes the job sooner than one that has work (a heavy job, say).
      if (least.jobs.length > 0 && [...slots].some((slot) => !slot.ready)) return;
      assign(least, queue.shift()!);
    }
  }

  /** Marks a job its worker holds as cancelled; it stops at its next checkpoint, or does not start. */
  function cancelHeld(slot: Slot, job: Job): void {
    job.cancelled = true;
    Atomics.store(slot.cancellation, job.place, cancellationMark(job.seq));
    if (slot.jobs[0] === job) watchForStuck(slot, job);
  }

  /** Stops and replaces a worker that does not give up a cancelled job. */
  function watchForStuck(slot: Slot, job: Job): void {
    clearTimeout(slot.stuckTimer);
    slot.stuckTimer = setTimeout(() => {
      if (slot.jobs[0] !== job) return;
      options.onNote?.(`${options.name}: a worker did not stop a cancelled job within ${stuckAfter} ms and was replaced`);
      replace(slot, 'stopped after a cancelled job would not end');
    }, stuckAfter);
    slot.stuckTimer.unref?.();
  }

  /** The jobs ahead (waiting, or held but not started), at the recent time a job keeps a worker, shared by the workers. */
  function expectedWaitMs(held: number): number {
    if (serviceMs === undefined || slots.size === 0) return 0;
    const ahead = queue.length + Math.max(0, held - slots.size);
    return (ahead * serviceMs) / slots.size;
  }

  const started = workerModule(options.entry).then((url) => {
    workerUrl = url;
    for (let i = 0; i < options.workers; i++) startWorker(url);
    dispatch();
  });
  // A worker module that cannot be built fails every job with the reason, not the process.
  started.catch(() => undefined);

  return {
    run<Result>(kind: string, request: unknown, runOptions: RunOptions = {}): Promise<Result> {
      if (closed) return Promise.reject(new OverloadedError('The service is shutting down; retry shortly.', 1));
      const { signal } = runOptions;
      if (signal?.aborted) return Promise.reject(signal.reason);
      const promise = new Promise<Result>((resolve, reject) => {
        const onAbort = () => {
          if (job.settled) return;
          const waiting = queue.indexOf(job);
          if (waiting >= 0) queue.splice(waiting, 1);
          else for (const slot of slots) if (slot.jobs.includes(job)) cancelHeld(slot, job);
          settle(() => reject(signal!.reason));
        };
        const settle = (action: () => void) => {
          if (job.settled) return;
          job.settled = true;
          action();
        };
        const job: Job = {
          id: nextId++,
          kind,
          request,
          transfer: runOptions.transfer ?? [],
          seq: -1,
          place: -1,
          settled: false,
          cancelled: false,
          resolve: (result) => settle(() => resolve(result as Result)),
          reject: (error) => settle(() => reject(error)),
          detach: () => signal?.removeEventListener('abort', onAbort),
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        queue.push(job);
        dispatch();
        started.catch((error: unknown) => {
          const index = queue.indexOf(job);
          if (index >= 0) queue.splice(index, 1);
          job.reject(new Error(`${options.name} cannot start its workers: ${(error as Error).message}`));
        });
      });
      const forget = () => void unsettled.delete(settled);
      const settled: Promise<void> = promise.then(forget, forget);
      unsettled.add(settled);
      return promise;
    },

    onJobHandedOver(listener) {
      handOverListeners.add(listener);
      return () => void handOverListeners.delete(listener);
    },

    ready: () => (allReady() ? Promise.resolve() : new Promise<void>((resolve) => readyWaiters.push(resolve))),

    get stats() {
      let running = 0;
      let workersReady = 0;
      for (const slot of slots) {
        running += slot.jobs.length;
        if (slot.ready) workersReady++;
      }
      return { waiting: queue.length, running, finished, cancelled, expectedWaitMs: expectedWaitMs(running), workersReady, busyMs, counts };
    },

    async close() {
      closed = true;
      await Promise.all(unsettled);
      // Cancelled jobs may still be on a worker after their promise settled.
      while ([...slots].some((slot) => slot.jobs.length > 0)) await new Promise((resolve) => setTimeout(resolve, 5));
      const workers = [...slots].map((slot) => slot.worker);
      slots.clear();
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
