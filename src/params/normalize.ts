import type { z } from 'zod';

/**
 * Parameter names are case-insensitive (lineColor = linecolor). Folds a query into
 * lower-case names; a name given twice with different values is an error, since we cannot
 * know which one the client meant, while an exact repeat is harmless.
 */
export function foldQueryCase(query: unknown, ctx: z.core.$RefinementCtx): Record<string, string> {
  const folded: Record<string, string> = {};
  for (const [name, given] of Object.entries(query as Record<string, string | string[]>)) {
    const lower = name.toLowerCase();
    for (const value of Array.isArray(given) ? given : [given]) {
      const earlier = folded[lower];
      if (earlier === undefined || earlier === value) {
        folded[lower] = value;
      } else {
        ctx.addIssue({
          code: 'custom',
          path: [lower],
          message: `was given more than once with different values ('${earlier}' and '${value}')`,
          input: value,
        });
      }
    }
  }
  return folded;
}
