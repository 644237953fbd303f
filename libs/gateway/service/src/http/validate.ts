import { validationDetails, RefusedError } from '@reelstream/contracts';
import type * as z from 'zod';

/** Parses a request part with its contract schema; a mismatch is 400 VALIDATION_FAILED listing every problem. */
export function parseRequest<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) throw RefusedError.validation(validationDetails(result.error));
  return result.data;
}

/**
 * The query string as an object without empty parameters: `?playerId=&status=active` filters by
 * status only, as the form of the endpoints in the specification (`?playerId=&platformId=&status=`)
 * suggests. A repeated parameter stays an array, which the schemas refuse.
 */
export function nonEmptyQuery(query: unknown): Record<string, unknown> {
  const entries = Object.entries((query ?? {}) as Record<string, unknown>);
  return Object.fromEntries(entries.filter(([, value]) => value !== ''));
}
