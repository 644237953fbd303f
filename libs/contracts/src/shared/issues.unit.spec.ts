import { describe, expect, it } from '@jest/globals';
import * as z from 'zod';
import { describeIssues } from './issues.js';

describe('describeIssues', () => {
  it('names the path of every problem, the value itself as (root)', () => {
    const nested = z
      .strictObject({ a: z.strictObject({ b: z.number() }), c: z.string() })
      .safeParse({ a: { b: 'x' }, c: 1 });
    expect(nested.success).toBe(false);
    expect(describeIssues(nested.error?.issues ?? [])).toBe(
      'a.b: Invalid input: expected number, received string; c: Invalid input: expected string, received number',
    );
    expect(describeIssues(z.number().safeParse('x').error?.issues ?? [])).toBe(
      '(root): Invalid input: expected number, received string',
    );
  });
});
