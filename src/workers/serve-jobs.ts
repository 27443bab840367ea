/**
 * The worker side of a pool: answers each job with its handler's result. A handler gets a
 * checkpoint() to call between steps of long work; once the pool has asked for the job to
 * stop, checkpoint() throws and the job ends as cancelled.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Checkpoint } from '../geometry/simplify.ts';
import {
  cancellationMark,
  JOBS_PER_WORKER,
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
}

export interface Handled {
  result: unknown;
  /** Buffers of the result to move to the pool's thread rather than copy. */
  transfer?: ArrayBuffer[];
}

export type JobHandler<Request> = (request: Request, context: JobContext) => Handled | Promise<Handled>;

class JobCancelled extends Error {}

/** The options the pool started this worker with. */
export function workerOptions<Options>(): Options {
  return (workerData as WorkerStart<Options>).options;
}

export function serveJobs(handlers: Record<string, JobHandler<never>>): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs() must run inside a worker thread');
  const cancellation = new Int32Array((workerData as WorkerStart<unknown>).cancellation);

  port.on('message', async ({ id, seq, kind, request }: JobMessage) => {
    const notes: string[] = [];
    const context: JobContext = {
      checkpoint: () => {
        if (Atomics.load(cancellation, seq % JOBS_PER_WORKER) === cancellationMark(seq)) throw new JobCancelled();
      },
      note: (text) => void notes.push(text),
    };
    let reply: ReplyMessage;
    let transfer: ArrayBuffer[] = [];
    try {
      const handler = handlers[kind] as JobHandler<unknown> | undefined;
      if (!handler) throw new Error(`no handler for jobs of kind '${kind}'`);
      context.checkpoint();
      const handled = await handler(request, context);
      reply = { id, result: handled.result };
      transfer = handled.transfer ?? [];
    } catch (error) {
      reply = error instanceof JobCancelled ? { id, cancelled: true } : { id, failure: serializeError(error) };
    }
    if (notes.length > 0) reply.notes = notes;
    try {
      port.postMessage(reply, transfer);
    } catch (error) {
      // A result that cannot be sent (a buffer detached by an earlier transfer) fails its job, not the worker.
      port.postMessage({ id, failure: serializeError(error), notes } satisfies ReplyMessage);
    }
  });
  port.postMessage({ ready: true } satisfies ReadyMessage);
}
