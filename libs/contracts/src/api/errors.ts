/**
 * The zod side of the one error catalogue (decisions.md D16): the codes as a schema, the details of
 * a validation failure. The catalogue itself (codes, statuses, default messages) is the kernel's
 * `@reelstream/errors`, which the package index re-exports unchanged, so the money kernel's errors carry its codes too.
 */
import * as z from 'zod';
import { ERROR_CODES, type ErrorDetail } from '@reelstream/errors';

export const errorCode = z
  .enum(ERROR_CODES)
  .meta({ id: 'ErrorCode', description: 'Stable error code from the error catalogue.' });

/** The schema of the kernel's `ErrorDetail`. */
export const errorDetail = z.object({ path: z.string(), message: z.string() }).meta({
  id: 'ErrorDetail',
  description: 'One problem found in the request: the field path (empty for the whole body) and the reason.',
}) satisfies z.ZodType<ErrorDetail>;

/** `['metaData', 'spinAmount']` → `metaData.spinAmount`; `['gameId', 1]` → `gameId[1]`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

/**
 * The `details` of a VALIDATION_FAILED error, one entry per problem. An unknown key gets its
 * own entry under its own path, so an operator sees `{path: "spins", message: "unknown field"}`.
 */
export function validationDetails(error: z.ZodError): ErrorDetail[] {
  return detailsOf(error.issues, []);
}

function detailsOf(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[]): ErrorDetail[] {
  return issues.flatMap((issue): ErrorDetail[] => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: formatIssuePath([...path, key]), message: `unknown field "${key}"` }));
    }
    if (issue.code === 'invalid_union') {
      // When the value had the type of exactly one alternative (an array for `number | number[]`),
      // that alternative's own problems say more than "matches none of the alternatives".
      const typed = issue.errors.filter(
        (branch) => !branch.every((inner) => inner.code === 'invalid_type' && inner.path.length === 0),
      );
      const [only] = typed;
      if (typed.length === 1 && only !== undefined) return detailsOf(only, path);
    }
    return [{ path: formatIssuePath(path), message: issue.message }];
  });
}
