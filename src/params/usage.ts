/** The usage route's query (`/REST/v1/usage`, docs/api.md "Usage"): the envelope's format alone. */
import { z } from 'zod';
import { choiceParam, withDefault } from './fields.ts';
import { foldQueryNames } from './normalize.ts';

/** The envelope only: there is no picture of a count. XML by default, as the other envelopes. */
export const USAGE_FORMATS = ['xml', 'json'] as const;

const fields = { format: withDefault(choiceParam(USAGE_FORMATS), 'xml') };

export const usageQuerySchema = z
  .preprocess(foldQueryNames(Object.keys(fields)), z.looseObject(fields))
  .transform((query) => ({ format: query.format ?? 'xml' }));
