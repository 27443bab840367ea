import { parentPort } from 'node:worker_threads';

/** What a pool sends a worker: one job. */
export interface JobMessage<Request> {
  id: number;
  request: Request;
}

/** What a worker answers: the job's result, or why it failed. */
export type ReplyMessage<Result> = { id: number; result: Result } | { id: number; error: string };

/**
 * Runs inside a worker: answers every job with `handle`'s result (moving the buffers it
 * lists instead of copying them) or with the message of what it threw.
 */
export function serveJobs<Request, Result>(
  handle: (request: Request) => { result: Result; transfer?: ArrayBuffer[] },
): void {
  const port = parentPort;
  if (!port) throw new Error('serveJobs() must run inside a worker thread');
  port.on('message', ({ id, request }: JobMessage<Request>) => {
    let reply: ReplyMessage<Result>;
    let transfer: ArrayBuffer[] = [];
    try {
      const handled = handle(request);
      reply = { id, result: handled.result };
      transfer = handled.transfer ?? [];
    } catch (error) {
      reply = { id, error: error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply, transfer);
  });
}
