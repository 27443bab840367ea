import { OverloadedError } from '../errors.ts';

/** A request that cannot be answered within its time budget gets 503, not an endless wait. */
export async function withTimeLimit<T>(work: Promise<T>, milliseconds: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new OverloadedError(`The request could not be answered within ${milliseconds} ms; retry later.`, 2)),
      milliseconds,
    );
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
