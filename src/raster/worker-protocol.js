import { parentPort } from 'node:worker_threads';

/**
 * What a pool sends a worker: one job.
 * @template Request
 * @typedef {{ id: number, request: Request }} JobMessage
 */

/**
 * What a worker answers: the job's result, or why it failed.
 * @template Result
 * @typedef {{ id: number, result: Result } | { id: number, error: string }} ReplyMessage
 */

/**
 * Runs inside a worker (plain JavaScript, like every module a worker loads, so that a
 * worker starts without a TypeScript loader): answers every job with `handle`'s result (moving the buffers it
 * lists instead of copying them) or with the message of what it threw.
 */
/**
 * @template Request, Result
 * @param {(request: Request) => { result: Result, transfer?: ArrayBuffer[] }} handle
 */
export function serveJobs(handle) {
  const port = parentPort;
  if (!port) throw new Error('serveJobs() must run inside a worker thread');
  port.on('message', (/** @type {JobMessage<Request>} */ { id, request }) => {
    /** @type {ReplyMessage<Result>} */
    let reply;
    /** @type {ArrayBuffer[]} */
    let transfer = [];
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
