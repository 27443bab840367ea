/**
 * A long list's work in batches, a few at once: a page of 1,000 collections is described as ten
 * jobs of 100 on every drawing worker, not as one job on one of them. From a remote source
 * each job keeps the bytes it fetched until it ends (job-context/job-bytes.ts): in batches, a
 * page holds a batch's bytes at a time, not the whole page's, and its reads are spread over
 * the workers (docs/ogc.md, "Collections").
 */

/** `run` for each batch of at most `size` of `items`, at most `parallel` batches at once; the results in the items' order. */
export async function inBatches<Item, Result>(items: readonly Item[], size: number, parallel: number, run: (batch: Item[]) => Promise<Result[]>): Promise<Result[]> {
  const batches: Item[][] = [];
  for (let at = 0; at < items.length; at += size) batches.push(items.slice(at, at + size));
  const results: Result[][] = new Array(batches.length);
  let next = 0;
  const lane = async () => {
    try {
      for (let i = next++; i < batches.length; i = next++) results[i] = await run(batches[i]);
    } catch (error) {
      // The page fails as its first batch does: no other batch is started for it.
      next = batches.length;
      throw error;
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, batches.length) }, lane));
  return results.flat();
}
