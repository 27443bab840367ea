import { Worker } from 'node:worker_threads';
import { OverloadedError } from '../errors.ts';
import type { JobMessage, ReplyMessage } from './worker-protocol.js';

export interface WorkerPoolOptions {
  /**
   * The worker module; it answers jobs with serveJobs(). Worker modules are plain JavaScript
   * so that every runtime (Node without tsx, Deno, Bun) starts them directly: tsx's loader
   * does not reach worker threads, and registering it in each cost ~350 ms and 40 MB.
   */
  entry: URL;
  /** Jobs run at once, one per worker thread. */
  workers: number;
  /** Jobs that may wait for a free worker; one more is refused with OverloadedError. */
  maxQueue: number;
  /** Names the pool in error messages. */
  name: string;
}

export interface WorkerPool<Request, Result> {
  /** Runs one job; rejects at once with OverloadedError when the queue is full. */
  run(request: Request): Promise<Result>;
  /** Refuses new jobs, finishes the accepted ones, then stops the workers. */
  close(): Promise<void>;
}

interface Job<Request, Result> {
  id: number;
  request: Request;
  resolve(result: Result): void;
  reject(error: Error): void;
}

interface Slot<Request, Result> {
  worker: Worker;
  job?: Job<Request, Result>;
}

/**
 * A fixed number of worker threads, each running one job at a time, with a bounded queue
 * in front. A worker that dies fails only the job it was running and is replaced when the
 * next job needs it (not at once, so a worker that cannot start does not respawn in a loop).
 * Idle workers do not keep the process alive.
 */
export function createWorkerPool<Request, Result>(options: WorkerPoolOptions): WorkerPool<Request, Result> {
  const slots = new Set<Slot<Request, Result>>();
  const queue: Job<Request, Result>[] = [];
  const unsettled = new Set<Promise<unknown>>();
  let nextId = 0;
  let closed = false;

  function startWorker(): Slot<Request, Result> {
    const slot: Slot<Request, Result> = { worker: new Worker(options.entry) };
    slot.worker.unref();
    slot.worker.on('message', (reply: ReplyMessage<Result>) => {
      const job = slot.job;
      if (!job || job.id !== reply.id) return;
      slot.job = undefined;
      slot.worker.unref();
      if ('error' in reply) job.reject(new Error(`${options.name} failed: ${reply.error}`));
      else job.resolve(reply.result);
      dispatch(slot);
    });
    slot.worker.on('error', (error) => retire(slot, error.message));
    slot.worker.on('exit', (code) => retire(slot, `exited with code ${code}`));
    slots.add(slot);
    return slot;
  }

  function retire(slot: Slot<Request, Result>, reason: string): void {
    if (!slots.delete(slot)) return;
    void slot.worker.terminate();
    slot.job?.reject(new Error(`${options.name} worker crashed: ${reason}`));
    slot.job = undefined;
    const next = queue.shift();
    if (next) assign(startWorker(), next);
  }

  function assign(slot: Slot<Request, Result>, job: Job<Request, Result>): void {
    slot.job = job;
    slot.worker.ref();
    const message: JobMessage<Request> = { id: job.id, request: job.request };
    slot.worker.postMessage(message);
  }

  function dispatch(slot: Slot<Request, Result>): void {
    const next = queue.shift();
    if (next) assign(slot, next);
  }

  function freeSlot(): Slot<Request, Result> | undefined {
    for (const slot of slots) if (!slot.job) return slot;
    return slots.size < options.workers ? startWorker() : undefined;
  }

  for (let i = 0; i < options.workers; i++) startWorker();

  return {
    run(request) {
      if (closed) return Promise.reject(new Error(`${options.name} is closed`));
      const slot = freeSlot();
      if (!slot && queue.length >= options.maxQueue) {
        return Promise.reject(new OverloadedError(`The ${options.name} is busy; try again shortly.`));
      }
      const promise = new Promise<Result>((resolve, reject) => {
        const job = { id: nextId++, request, resolve, reject };
        if (slot) assign(slot, job);
        else queue.push(job);
      });
      const forget = () => void unsettled.delete(settled);
      const settled: Promise<void> = promise.then(forget, forget);
      unsettled.add(settled);
      return promise;
    },

    async close() {
      closed = true;
      await Promise.all(unsettled);
      const workers = [...slots].map((slot) => slot.worker);
      slots.clear();
      await Promise.all(workers.map((worker) => worker.terminate()));
    },
  };
}
