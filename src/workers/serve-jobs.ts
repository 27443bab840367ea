/**
 * The worker side of a pool: answers each job with its handler's result. A handler gets a
 * checkpoint() to call between steps of long work; once the pool has asked for the job to
 * stop, checkpoint() throws and the job ends as cancelled. A handler that has to wait for
 * something outside its thread (bytes from a remote data source) waits through waitFor():
 * the worker starts its next job meanwhile, and the wait stops when the job is cancelled.
 */
import { getPriority, platform, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import type { Checkpoint } from '../cancellation/checkpoint.ts';
import {
  cancellationMark,
  serializeError,
  type JobMessage,
  type ReadyMessage,
  type ReplyMessage,
  type WorkerStart,
} from './protocol.ts';

export interface JobContext {
  checkpoint: Checkpoint;
  /** Things worth logging that the pool's side should log (a worker has no logger). */
  note(text: string): void;
  /** Adds to a counter the pool sums over all jobs (PoolStats.counts): how a worker's work reaches the service's metrics. */
  count(name: string, by: number): void;
  /**
   * What `work` gives, once it has: the worker runs its other jobs meanwhile. `work` is
   * handed a signal that fires when this job is cancelled (within CANCEL_POLL_MS), and must
   * then stop; the job ends as cancelled.
   */
  waitFor<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T>;
}

export interface Handled<Result = unknown> {
  result: Result;
  /** Buffers of the result to move to the pool's thread rather than copy. */
  transfer?: ArrayBuffer[];
}

export type JobHandler<Request> = (request: Request, context: JobContext) => Handled | Promise<Handled>;

class JobCancelled extends Error {}

/**
 * How often a waiting job looks at its cancellation mark. The mark is shared memory that the
 * pool writes without a message (a busy worker reads none), so a wait polls it; 25 ms keeps a
 * cancelled wait well within docs/decisions.md's 100 ms and costs an idle worker nothing worth counting.
 */
const CANCEL_POLL_MS = 25;

/**
 * Workers run at a lower priority than the thread that serves HTTP (nice +10 for this thread
 * alone: Linux keeps a nice value per thread), so that on a machine with more work than cores
 * the event loop is not kept waiting for a core behind the pool's own renders: /health and
 * small requests stay quick beside a million-point map. Elsewhere, or where the runtime does
 * not allow it, the worker runs as it is.
 */
const WORKER_NICENESS = 10;

function yieldToEventLoop(): void {
  try {
    if (platform() === 'linux') setPriority(Math.min(19, getPriority() + WORKER_NICENESS));
  } catch {
    // Not permitted or not implemented: the same priority as the event loop, as before.
  }
}

/** The options the pool started this worker with. */
export function workerOptions<Options>(): Options {
  return (workerData as WorkerStart<Options>).options;
}

export function serveJobs(handlers: Record<string, JobHandler<never>>): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs() must run inside a worker thread');
  yieldToEventLoop();
  const cancellation = new Int32Array((workerData as WorkerStart<unknown>).cancellation);

  const reply = (id: number, outcome: ReplyMessage, transfer: ArrayBuffer[], notes: string[], counts: Record<string, number> | undefined) => {
    if (notes.length > 0) outcome.notes = notes;
    if (counts) outcome.counts = counts;
    try {
      port.postMessage(outcome, transfer);
    } catch (error) {
      // A result that cannot be sent (a buffer detached by an earlier transfer) fails its job, not the worker.
      port.postMessage({ id, failure: serializeError(error), notes, counts } satisfies ReplyMessage);
    }
  };
  const failed = (id: number, error: unknown): ReplyMessage =>
    error instanceof JobCancelled ? { id, cancelled: true } : { id, failure: serializeError(error) };

  /** Runs a job; `release` is called when it starts to wait, so that the next job may start. */
  const run = async ({ id, seq, place, kind, request }: JobMessage, release: () => void) => {
    const notes: string[] = [];
    let counts: Record<string, number> | undefined;
    /** Time spent waiting (for a remote source's bytes), while the worker ran other jobs: not this job's service time. */
    let waitedMs = 0;
    const cancelled = () => Atomics.load(cancellation, place) === cancellationMark(seq);
    const context: JobContext = {
      checkpoint: () => {
        if (cancelled()) throw new JobCancelled();
      },
      waitFor: async (work) => {
        release();
        const controller = new AbortController();
        const poll = setInterval(() => cancelled() && controller.abort(new JobCancelled()), CANCEL_POLL_MS);
        const since = performance.now();
        try {
          return await work(controller.signal);
        } catch (error) {
          // Whatever the work failed with once the job was cancelled, the job ends as cancelled.
          throw controller.signal.aborted ? controller.signal.reason : error;
        } finally {
          clearInterval(poll);
          waitedMs += performance.now() - since;
        }
      },
      note: (text) => void notes.push(text),
      count: (name, by) => {
        if (by <= 0) return;
        counts ??= {};
        counts[name] = (counts[name] ?? 0) + by;
      },
    };
    const started = performance.now();
    const took = () => performance.now() - started - waitedMs;
    try {
      const handler = handlers[kind] as JobHandler<unknown> | undefined;
      if (!handler) throw new Error(`no handler for jobs of kind '${kind}'`);
      context.checkpoint();
      const { result, transfer = [] } = await handler(request, context);
      reply(id, { id, result, ms: took() }, transfer, notes, counts);
    } catch (error) {
      reply(id, { ...failed(id, error), ms: took() }, [], notes, counts);
    }
  };

  // Jobs run one at a time, with a turn of the event loop between them. Node delivers a
  // port's messages in one go for as long as more keep coming, and the native memory of
  // what a job leaves behind (resvg's pixmaps) is freed by finalizers that run only on a
  // later turn: measured, a worker always holding queued jobs grew by 3 MB a job. A job
  // that waits (waitFor) lets the next one start; it goes on, between the others' turns,
  // once what it waited for has come.
  const waiting: JobMessage[] = [];
  let running = false;
  const runWaiting = async () => {
    running = true;
    for (let job = waiting.shift(); job; job = waiting.shift()) {
      const next = job;
      await new Promise<void>((released) => void run(next, released).then(released));
      await new Promise((resolve) => setImmediate(resolve));
    }
    running = false;
  };
  port.on('message', (job: JobMessage) => {
    waiting.push(job);
    if (!running) void runWaiting();
  });
  port.postMessage({ ready: true } satisfies ReadyMessage);
}
