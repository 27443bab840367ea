import { Worker } from 'node:worker_threads';
import { deserializeError, jobIdAsInt32, type JobMessage, type ReplyMessage, type WorkerStart } from './protocol.ts';
import { workerModule } from './worker-module.ts';

export interface WorkerPoolOptions<Options> {
  /** The worker module (TypeScript; see worker-module.ts); it answers jobs with serveJobs(). */
  entry: URL;
  /** Jobs run at once, one per worker thread. */
  workers: number;
  /** Names the pool in error messages. */
  name: string;
  /** Handed to every worker (workerOptions() there). */
  options: Options;
  /**
   * A worker that has not given up a cancelled job after this long is stopped and
   * replaced (a native step that cannot look at the cancellation flag is still running).
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
  /** Jobs on a worker now (a cancelled one until its worker has stopped it). */
  running: number;
  /** Jobs answered with their result, or with the error they failed with. */
  finished: number;
  /** Jobs a worker stopped before their end, because they were cancelled. */
  cancelled: number;
}

export interface WorkerPool {
  run<Result>(kind: string, request: unknown, options?: RunOptions): Promise<Result>;
  readonly stats: PoolStats;
  /** Refuses new jobs, finishes the accepted ones, then stops the workers. */
  close(): Promise<void>;
}

interface Job {
  id: number;
  message: JobMessage;
  transfer: ArrayBuffer[];
  settled: boolean;
  resolve(result: unknown): void;
  reject(error: unknown): void;
  detach(): void;
}

interface Slot {
  worker: Worker;
  cancellation: Int32Array;
  job?: Job;
  stuckTimer?: ReturnType<typeof setTimeout>;
}

const DEFAULT_STUCK_AFTER_MS = 5_000;

/**
 * A fixed number of worker threads, each running one job at a time, with a queue in front
 * (admission is the caller's business: see http/admission.ts). A job whose signal aborts
 * leaves the queue at once, or is stopped at the worker's next checkpoint; its promise
 * rejects right away either way, and the worker takes the next job once it has stopped. A
 * worker that dies fails only the job it was running and is replaced.
 */
export function createWorkerPool<Options>(options: WorkerPoolOptions<Options>): WorkerPool {
  const moduleUrl = workerModule(options.entry);
  const slots = new Set<Slot>();
  const queue: Job[] = [];
  const unsettled = new Set<Promise<unknown>>();
  let nextId = 1;
  let closed = false;
  let finished = 0;
  let cancelled = 0;

  function startWorker(url: URL): Slot {
    const cancellation = new SharedArrayBuffer(4);
    const start: WorkerStart<Options> = { cancellation, options: options.options };
    const slot: Slot = { worker: new Worker(url, { workerData: start }), cancellation: new Int32Array(cancellation) };
    slot.worker.unref();
    slot.worker.on('message', (reply: ReplyMessage) => onReply(slot, reply));
    slot.worker.on('error', (error) => replace(slot, error.message));
    slot.worker.on('exit', (code) => replace(slot, `exited with code ${code}`));
    slots.add(slot);
    return slot;
  }

  function onReply(slot: Slot, reply: ReplyMessage): void {
    const job = slot.job;
    if (!job || job.id !== reply.id) return;
    for (const note of reply.notes ?? []) options.onNote?.(note);
    release(slot);
    if ('cancelled' in reply) cancelled++;
    else finished++;
    if ('result' in reply) job.resolve(reply.result);
    else if ('failure' in reply) job.reject(deserializeError(reply.failure, options.name));
    else job.reject(new Error(`${options.name}: job ${job.id} was cancelled`));
    dispatch();
  }

  function release(slot: Slot): void {
    slot.job?.detach();
    slot.job = undefined;
    clearTimeout(slot.stuckTimer);
    slot.stuckTimer = undefined;
    slot.worker.unref();
  }

  function replace(slot: Slot, reason: string): void {
    if (!slots.delete(slot)) return;
    const job = slot.job;
    release(slot);
    void slot.worker.terminate();
    job?.reject(new Error(`${options.name} worker crashed: ${reason}`));
    dispatch();
  }

  function assign(slot: Slot, job: Job): void {
    slot.job = job;
    slot.worker.ref();
    slot.worker.postMessage(job.message, job.transfer);
  }

  /**
   * Hands waiting jobs to idle workers. A worker that died is replaced here, when a job
   * needs it, rather than at once: one that cannot start must not respawn in a loop.
   */
  function dispatch(): void {
    if (workerUrl === undefined) return;
    while (queue.length > 0) {
      const idle = [...slots].find((slot) => !slot.job) ?? (slots.size < options.workers ? startWorker(workerUrl) : undefined);
      if (!idle) return;
      assign(idle, queue.shift()!);
    }
  }

  /** Asks the worker to stop the job; stops the worker itself if it does not. */
  function cancelRunning(slot: Slot, job: Job): void {
    Atomics.store(slot.cancellation, 0, jobIdAsInt32(job.id));
    slot.stuckTimer = setTimeout(() => {
      if (slot.job !== job) return;
      options.onNote?.(`${options.name}: a worker did not stop a cancelled job within ${stuckAfter} ms and was replaced`);
      replace(slot, 'stopped after a cancelled job would not end');
    }, stuckAfter);
    slot.stuckTimer.unref?.();
  }
  const stuckAfter = options.stuckAfterMs ?? DEFAULT_STUCK_AFTER_MS;

  let workerUrl: URL | undefined;
  const started = moduleUrl.then((url) => {
    workerUrl = url;
    for (let i = 0; i < options.workers; i++) startWorker(url);
    dispatch();
  });
  // A worker module that cannot be built fails every job with the reason, not the process.
  started.catch(() => undefined);

  return {
    run<Result>(kind: string, request: unknown, runOptions: RunOptions = {}): Promise<Result> {
      if (closed) return Promise.reject(new Error(`${options.name} is closed`));
      const { signal } = runOptions;
      if (signal?.aborted) return Promise.reject(signal.reason);
      const promise = new Promise<Result>((resolve, reject) => {
        const id = nextId++;
        const onAbort = () => {
          if (job.settled) return;
          const index = queue.indexOf(job);
          if (index >= 0) queue.splice(index, 1);
          else for (const slot of slots) if (slot.job === job) cancelRunning(slot, job);
          settle(() => reject(signal!.reason));
        };
        const settle = (action: () => void) => {
          if (job.settled) return;
          job.settled = true;
          action();
        };
        const job: Job = {
          id,
          message: { id, kind, request },
          transfer: runOptions.transfer ?? [],
          settled: false,
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

    get stats() {
      return { waiting: queue.length, running: [...slots].filter((slot) => slot.job).length, finished, cancelled };
    },

    async close() {
      closed = true;
      await Promise.all(unsettled);
      // Cancelled jobs may still be running after their promise settled.
      while ([...slots].some((slot) => slot.job)) await new Promise((resolve) => setTimeout(resolve, 5));
      const workers = [...slots].map((slot) => slot.worker);
      slots.clear();
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
