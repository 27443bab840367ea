/**
 * A signal that fires when its time is up or when a parent signal fires, whichever comes
 * first, made of a plain timer and an AbortController that the timer holds. Not
 * AbortSignal.timeout() nor AbortSignal.any(): their signals are held weakly (Node's timeout
 * timer holds its signal by a weak reference; a signal of any() by its parents), and a
 * garbage collection while nothing else holds one drops it, and what waits on it with it
 * (an aborted fetch() waits on when a collection runs meanwhile: undici#4627; any()'s signal
 * given to fetch() is dropped on Deno, denoland/deno#29075, and on Bun, oven-sh/bun#43147).
 * A deadline that matters (a request to a source, a listing: docs/configuration.md, "Data
 * sources") must fire whatever runs meanwhile.
 */

/** Why a deadline's signal fired when its time ran out (its parent's own reason otherwise). */
export class DeadlinePassed extends Error {
  constructor(readonly ms: number) {
    super(`The deadline of ${ms} ms passed.`);
    this.name = 'TimeoutError';
  }
}

export interface Deadline {
  /** Fires at the deadline (reason DeadlinePassed) or with the parent's reason. */
  readonly signal: AbortSignal;
  /** Whether it fired because its time ran out (not its parent). */
  timedOut(): boolean;
  /** Stops the timer and stops listening to the parent; the signal no longer fires. */
  clear(): void;
}

/** A deadline `ms` from now, which also fires when `parent` does. */
export function deadlineSignal(ms: number, parent?: AbortSignal): Deadline {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onParent = () => {
    clearTimeout(timer);
    controller.abort(parent!.reason);
  };
  const clear = () => {
    clearTimeout(timer);
    parent?.removeEventListener('abort', onParent);
  };
  controller.signal.addEventListener('abort', clear, { once: true });
  if (parent?.aborted) onParent();
  else {
    parent?.addEventListener('abort', onParent, { once: true });
    timer = setTimeout(() => controller.abort(new DeadlinePassed(ms)), ms);
  }
  return {
    signal: controller.signal,
    timedOut: () => controller.signal.reason instanceof DeadlinePassed,
    clear,
  };
}
