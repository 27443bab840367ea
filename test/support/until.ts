/**
 * Waits for a condition that nothing announces (another process listening or refusing, a
 * server recovering on its own time, files appearing on disk): asked again and again for as
 * long as it takes, never for a guessed time; `withinMs` only turns a wait that never ends
 * into a failure that says so.
 */
export async function until(condition: () => boolean | Promise<boolean>, withinMs = 30_000): Promise<void> {
  const deadline = performance.now() + withinMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`not so within ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
