/**
 * What the pool and its worker threads say to each other. A job names its kind and carries
 * its request; the answer is its result, the error it failed with (as the status and text a
 * client may see, when it is a ServiceError), or word that it stopped because it was
 * cancelled. Cancellation itself does not go through messages: a worker busy with a job
 * reads no messages, so the pool writes the job's id into memory shared with the worker,
 * which looks at it between steps (see checkpoint()).
 */
import { ServiceError } from '../errors.ts';

export interface JobMessage {
  id: number;
  kind: string;
  request: unknown;
}

export type ReplyMessage =
  | { id: number; result: unknown; notes?: string[] }
  | { id: number; failure: SerializedError; notes?: string[] }
  | { id: number; cancelled: true; notes?: string[] };

export interface SerializedError {
  message: string;
  /** A ServiceError's status: the message is then meant for the client. */
  status?: ServiceError['status'];
  retryAfterSeconds?: number;
  stack?: string;
}

/** What every worker of a pool is started with. */
export interface WorkerStart<Options> {
  /** One Int32: the id of the job the pool wants stopped. */
  cancellation: SharedArrayBuffer;
  options: Options;
}

/** Ids travel through an Int32Array. */
export const jobIdAsInt32 = (id: number) => id | 0;

export function serializeError(error: unknown): SerializedError {
  if (error instanceof ServiceError) {
    return { message: error.message, status: error.status, retryAfterSeconds: error.retryAfterSeconds };
  }
  if (error instanceof Error) return { message: error.message, stack: error.stack };
  return { message: String(error) };
}

/** A ServiceError as the client should see it; anything else as a plain Error (a 500 whose text is logged, not shown). */
export function deserializeError(serialized: SerializedError, pool: string): Error {
  if (serialized.status !== undefined) return new ServiceError(serialized.status, serialized.message, serialized.retryAfterSeconds);
  const error = new Error(`${pool} failed: ${serialized.message}`);
  if (serialized.stack) error.stack = serialized.stack;
  return error;
}
