/**
 * Reading a query's names before its values: folding their case, and refusing the
 * misspelled ones, so that each operation's schema sees the names it knows.
 */
import type { z } from 'zod';
import { echo } from '../errors.ts';
import { meantParameter } from './near-miss.ts';
import { isParameterName } from './spelling.ts';

/**
 * Parameter names are case-insensitive (lineColor = linecolor). Folds a query into
 * lower-case names; a name given twice with different values is an error, since we cannot
 * know which one the client meant, while an exact repeat is harmless. The values are
 * quoted in the error, except the key's: a key never appears in an answer. The names are
 * looked up in an object without a prototype: `__proto__` and `constructor` are names a
 * client may send (unknown ones, ignored), not ones it sent already.
 */
function foldQueryCase(query: unknown, ctx: z.core.$RefinementCtx): Record<string, string> {
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

/**
 * The query folded into lower-case names (foldQueryCase), with a name that is a near miss
 * (near-miss.ts) of one of the operation's parameters (lower-cased) or of `key`, which
 * every route takes, refused. Other unknown names are left for the schema to ignore, and
 * so is a parameter of the interface that this operation does not take or that another
 * parameter turns off (`theme` on a map): docs/decisions.md keeps those ignored. The issue
 * carries the parameter meant, for the message ("did you mean ...?"). Issues here stop the
 * values from being validated: what a misspelled name's value should have been is unknown.
 */
export function foldQueryNames(operationParameters: readonly string[]) {
  const parameters = [...operationParameters, 'key'];
  const known = new Set(parameters);
  return (query: unknown, ctx: z.core.$RefinementCtx): Record<string, string> => {
    const folded = foldQueryCase(query, ctx);
    for (const name of Object.keys(folded)) {
      if (known.has(name) || isParameterName(name)) continue;
      const meant = meantParameter(name, parameters);
      if (meant !== undefined) ctx.addIssue({ code: 'custom', path: [name], message: 'is unknown', params: { meant } });
    }
    return folded;
  };
}
