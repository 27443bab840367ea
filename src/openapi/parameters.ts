/**
 * OpenAPI parameters from the zod schema that validates a route's query: its input side as
 * JSON Schema (each parameter builder in params/fields.ts says what it takes), under the
 * names the interface spells.
 */
import { z } from 'zod';

export interface QueryParameter {
  name: string;
  in: 'query';
  required: boolean;
  description?: string;
  schema: Record<string, unknown>;
}

/** The query parameters `schema` validates; `spell` gives a (lower-cased) property its interface name. */
export function queryParameters(schema: z.ZodType, spell: (name: string) => string): QueryParameter[] {
  const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([property, { description, ...rest }]) => ({
    name: spell(property),
    in: 'query',
    required: json.required?.includes(property) ?? false,
    ...(typeof description === 'string' ? { description } : {}),
    schema: rest,
  }));
}
