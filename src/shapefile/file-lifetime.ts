import { OverloadedError } from '../errors.ts';

/**
 * When the open files of a replaced shapefile version may close: after a grace period
 * (a request may hold the version between reads) and once no read is in flight.
 */
export interface FileLifetime {
  /** Runs a read on the open files; refused once they are closed. */
  use<T>(read: () => Promise<T>): Promise<T>;
  retire(): void;
  close(): Promise<void>;
}

export function createFileLifetime(name: string, closeFiles: () => Promise<void>, graceMs: number): FileLifetime {
  let inFlight = 0;
  let retired = false;
  let graceOver = false;
  let closed = false;
  const close = async () => {
    closed = true;
    await closeFiles();
  };
  return {
    async use(read) {
      if (closed) throw new OverloadedError(`Shapefile '${name}' changed on disk while it was being read; try again.`);
      inFlight++;
      try {
        return await read();
      } finally {
        inFlight--;
        if (retired && graceOver && inFlight === 0) void close();
      }
    },
    retire() {
      if (retired || closed) return;
      retired = true;
      setTimeout(() => {
        graceOver = true;
        if (inFlight === 0) void close();
      }, graceMs).unref();
    },
    close,
  };
}
