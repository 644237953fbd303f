import type * as z from 'zod';

/** A zod error's problems on one line, `path: message; …` (`(root)` for the value itself): for logs, dead-letter reasons and error messages. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}
