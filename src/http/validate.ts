/**
 * Turns zod's verdict on a query into the 400 a client reads: one sentence for each bad
 * parameter, naming it as the interface spells it (or, for a misspelled name, as the
 * client spelled it, beside the parameter it meant).
 */
import { zValidator } from '@hono/zod-validator';
import type { Context } from 'hono';
import type { z } from 'zod';
import { BadRequestError, echo } from '../errors.ts';
import { spelledParameter } from '../params/spelling.ts';
import type { AppEnv } from './context.ts';

/** The name and value the client sent for a parameter, whatever the case of its name. */
function sent(query: Record<string, string | string[]>, name: string): { name: string; value: string } | undefined {
  for (const [key, value] of Object.entries(query)) {
    if (key.toLowerCase() === name) return { name: key, value: Array.isArray(value) ? value[0] : value };
  }
  return undefined;
}

function describeIssue(issue: z.core.$ZodIssue, query: Record<string, string | string[]>): string {
  const name = String(issue.path[0] ?? '');
  // A near miss of a parameter (params/normalize.ts): named as the client spelled it, beside the one it meant.
  const meant = issue.code === 'custom' ? (issue.params as { meant?: string } | undefined)?.meant : undefined;
  if (meant !== undefined) {
    return `Unknown parameter '${echo(sent(query, name)?.name ?? name)}': did you mean '${spelledParameter(meant) ?? meant}'?`;
  }
  const spelled = spelledParameter(name) ?? echo(name);
  const raw = sent(query, name)?.value;
  // A rule across parameters ('fid' or 'where') says itself what is missing.
  if (raw === undefined) return issue.code === 'custom' ? `Parameter '${spelled}' ${issue.message}.` : `Parameter '${spelled}' is required.`;
  if (!issue.message.startsWith('must')) return `Parameter '${spelled}' ${issue.message}.`;
  return `Parameter '${spelled}' ${issue.message}; got '${echo(raw)}'.`;
}

/** Validates the query with zod; a failure is a 400 whose details name every bad parameter. */
export function validQuery<T extends z.ZodType>(schema: T) {
  return zValidator('query', schema, (result, c) => {
    const query = result.data as Record<string, string | string[]>;
    if (!result.success) {
      const sentences = [...new Set(result.error.issues.map((issue) => describeIssue(issue, query)))];
      throw new BadRequestError(sentences.join(' '));
    }
    // For the request log: the names given that are parameters of the interface (of this operation or the other,
    // which it ignores), from that fixed list; cache-busters and other unknown names are anybody's text.
    (c as unknown as Context<AppEnv>).set('queryNames', [...new Set(Object.keys(c.req.queries()).flatMap((name) => spelledParameter(name.toLowerCase()) ?? []))]);
  });
}
