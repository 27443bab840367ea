import type { z } from 'zod';
import { echo } from '../errors.ts';

/**
 * Parameter names are case-insensitive (lineColor = linecolor). Folds a query into
 * lower-case names; a name given twice with different values is an error, since we cannot
 * know which one the client meant, while an exact repeat is harmless. The values are
 * quoted in the error, except the key's: a key never appears in an answer. The names are
 * looked up in an object without a prototype: `__proto__` and `constructor` are names a
 * client may send (unknown ones, ignored), not ones it sent already.
 */
export function foldQueryCase(query: unknown, ctx: z.core.$RefinementCtx): Record<string, string> {
  const folded: Record<string, string> = Object.create(null);
  for (const [name, given] of Object.entries(query as Record<string, string | string[]>)) {
    const lower = name.toLowerCase();
    for (const value of Array.isArray(given) ? given : [given]) {
      const earlier = folded[lower];
      if (earlier === undefined || earlier === value) {
        folded[lower] = value;
      } else {
        const values = lower === 'key' ? '' : ` ('${echo(earlier)}' and '${echo(value)}')`;
        ctx.addIssue({ code: 'custom', path: [lower], message: `was given more than once with different values${values}` });
      }
    }
  }
  return folded;
}
