/**
 * What the pool and its worker threads say to each other. A job names its kind and carries
 * its request; the answer is its result, the error it failed with (as the status and text a
 * client may see, when it is a ServiceError), or word that it stopped because it was
 * cancelled. Cancellation itself does not go through messages: a worker busy with a job
 * reads no messages, so the pool writes a mark into memory shared with the worker, which
 * looks at it before a job and between its steps (serve-jobs.ts, checkpoint()).
 */
import { FilesChangedError, ServiceError } from '../errors.ts';
import { BasemapUnavailableError, isBasemapUnavailable } from '../plugin-contract/unavailable.ts';

export interface JobMessage {
  id: number;
  /** The job's number on its worker: the mark that stops it. */
  seq: number;
  /** Where its cancellation mark goes: a place no other job the worker holds has. */
  place: number;
  kind: string;
  request: unknown;
}

/** What a worker says once it has loaded and serves jobs. */
export interface ReadyMessage {
  ready: true;
}

/** What every answer carries besides its outcome. */
interface ReplyFacts {
  id: number;
  /** What the worker asks to have logged. */
  notes?: string[];
  /** How long the worker was at the job, in milliseconds, not counting what it waited for (waitFor) while it ran others. */
  ms?: number;
  /** What the job counted (JobContext.count), by counter. */
  counts?: Record<string, number>;
}

export type ReplyMessage =
  | (ReplyFacts & { result: unknown })
  | (ReplyFacts & { failure: SerializedError })
  | (ReplyFacts & { cancelled: true });

export interface SerializedError {
  message: string;
  /** A ServiceError's status: the message is then meant for the client. */
  status?: ServiceError['status'];
  retryAfterSeconds?: number;
  /** A FilesChangedError: the catalog the job was given is out of date. */
  filesChanged?: true;
  /** A basemap provider's BasemapUnavailableError (a plugin's worker threw it): the provider. */
  unavailable?: string;
  stack?: string;
}

/** What every worker of a pool is started with. */
export interface WorkerStart<Options> {
  /** JOBS_PER_WORKER Int32s: the mark of a job the pool wants stopped, at the job's place. */
  cancellation: SharedArrayBuffer;
  options: Options;
}

/**
 * Jobs a worker holds at once: the one it runs, and the next ones, waiting in its port. A
 * worker then goes on to its next job the moment it is done, without waiting for the pool's
 * thread, which may be busy answering hundreds of connections. Measured at c=600 on two
 * cores: 2 held jobs gave ~85 admitted requests/s, 8 gave ~300/s.
 */
export const JOBS_PER_WORKER = 8;

/**
 * What the pool writes at a job's place to stop job `seq`; 0 means nothing to stop. The pool
 * gives each job a place none of the worker's other held jobs has: their seqs need not be
 * consecutive, as a job waiting for bytes (serve-jobs.ts, waitFor) lets later ones finish.
 */
export const cancellationMark = (seq: number) => (seq % 0x40000000) + 1;

export function serializeError(error: unknown): SerializedError {
  if (error instanceof ServiceError) {
    return { message: error.message, status: error.status, retryAfterSeconds: error.retryAfterSeconds, ...(error instanceof FilesChangedError ? { filesChanged: true } : {}) };
  }
  if (isBasemapUnavailable(error)) {
    return { message: error.message, unavailable: error.provider, retryAfterSeconds: error.retryAfterSeconds };
  }
  if (error instanceof Error) return { message: error.message, stack: error.stack };
  return { message: String(error) };
}

/**
 * A ServiceError as the client should see it, a provider's unavailability as the registry
 * recognises it; anything else as a plain Error (a 500 whose text is logged, not shown).
 */
export function deserializeError(serialized: SerializedError, pool: string): Error {
  if (serialized.filesChanged) return new FilesChangedError(serialized.message, serialized.retryAfterSeconds);
  if (serialized.status !== undefined) return new ServiceError(serialized.status, serialized.message, serialized.retryAfterSeconds);
  if (serialized.unavailable !== undefined) {
    const error = new BasemapUnavailableError(serialized.unavailable, '', serialized.retryAfterSeconds);
    error.message = serialized.message;
    return error;
  }
  const error = new Error(`${pool} failed: ${serialized.message}`);
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}
