import { createHash } from 'node:crypto';

/**
 * An entity tag naming `facts`: a SHA-256 of their canonical JSON, shortened to 128 bits
 * (22 base64url characters), which is plenty to tell versions of one answer apart. Weak
 * (`W/`) when equal facts give equivalent but not byte-identical answers.
 */
export function entityTag(facts: unknown, weak: boolean): string {
  const digest = createHash('sha256').update(canonicalJson(facts)).digest('base64url').slice(0, 22);
  return weak ? `W/"${digest}"` : `"${digest}"`;
}

/** JSON with every object's keys sorted, so that equal facts hash alike whatever order they were built in. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    member !== null && typeof member === 'object' && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : member,
  );
}
