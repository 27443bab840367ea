/**
 * An ETag is a hash of the facts that determine an answer, in the order this version's code
 * builds them, so that every instance of one version serving the same data gives the same
 * answer the same tag (docs/decisions.md, "Images for screens and caches").
 */
import { createHash } from 'node:crypto';

/**
 * An entity tag naming `facts`: a SHA-256 of their JSON, shortened to 128 bits (22
 * base64url characters), which is plenty to tell versions of one answer apart. Weak (`W/`)
 * when equal facts give equivalent but not byte-identical answers. The facts are built in
 * a fixed order by this version's code (the validated request follows its schema's order,
 * whatever the query's), so their plain JSON is canonical enough and costs a fraction of a
 * sorted copy (measured: sorting was 35 µs of the main thread's time a request).
 */
export function entityTag(facts: unknown, weak: boolean): string {
  const digest = createHash('sha256').update(JSON.stringify(facts)).digest('base64url').slice(0, 22);
  return weak ? `W/"${digest}"` : `"${digest}"`;
}
