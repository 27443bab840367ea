import { zValidator } from '@hono/zod-validator';
import type { z } from 'zod';
import { BadRequestError, echo } from '../errors.ts';
import { spelledParameter } from '../params/spelling.ts';

/** The value the client sent for a parameter, whatever the case of its name. */
function sentValue(query: Record<string, string | string[]>, name: string): string | undefined {
  for (const [key, value] of Object.entries(query)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

function describeIssue(issue: z.core.$ZodIssue, query: Record<string, string | string[]>): string {
  const name = String(issue.path[0] ?? '');
  const spelled = spelledParameter(name) ?? echo(name);
  const raw = sentValue(query, name);
  // A rule across parameters ('fid' or 'where') says itself what is missing.
  if (raw === undefined) return issue.code === 'custom' ? `Parameter '${spelled}' ${issue.message}.` : `Parameter '${spelled}' is required.`;
  if (!issue.message.startsWith('must')) return `Parameter '${spelled}' ${issue.message}.`;
  return `Parameter '${spelled}' ${issue.message}; got '${echo(raw)}'.`;
}

/** Validates the query with zod; a failure is a 400 whose details name every bad parameter. */
export function validQuery<T extends z.ZodType>(schema: T) {
  return zValidator('query', schema, (result) => {
    if (!result.success) {
      const query = result.data as Record<string, string | string[]>;
      const sentences = [...new Set(result.error.issues.map((issue) => describeIssue(issue, query)))];
      throw new BadRequestError(sentences.join(' '));
    }
  });
}
