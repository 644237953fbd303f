import { describe, expect, it } from '@jest/globals';
import { parseRedriveArguments, parseSince } from '../src/index.js';

const now = new Date('2026-05-01T12:00:00.000Z');

describe('wallet:redrive arguments', () => {
  it('--since takes an ISO-8601 time or an age', () => {
    expect(parseSince('2026-04-30T00:00:00Z', now).toISOString()).toBe('2026-04-30T00:00:00.000Z');
    expect(parseSince('30m', now).toISOString()).toBe('2026-05-01T11:30:00.000Z');
    expect(parseSince('2d', now).toISOString()).toBe('2026-04-29T12:00:00.000Z');
    expect(() => parseSince('last tuesday', now)).toThrow(/neither an ISO-8601 time nor an age/);
  });

  it('reads the operator, the window and the tuning; refuses what it does not know', () => {
    expect(parseRedriveArguments(['--operator', 'demo', '--since', '1h'], now)).toEqual({
      mode: 'redrive',
      operatorId: 'demo',
      since: new Date('2026-05-01T11:00:00.000Z'),
      concurrency: 4,
      timeoutMs: 60_000,
    });
    expect(parseRedriveArguments([], now)).toEqual({ mode: 'redrive', concurrency: 4, timeoutMs: 60_000 });
    expect(() => parseRedriveArguments(['--concurrency', '0'], now)).toThrow(
      /--concurrency must be a positive integer/,
    );
    expect(() => parseRedriveArguments(['--everything'], now)).toThrow(/Unknown option/);
  });

  it('--list and --dry-run only read; together they are refused', () => {
    expect(parseRedriveArguments(['--list', '--operator', 'demo'], now)).toMatchObject({
      mode: 'list',
      operatorId: 'demo',
    });
    expect(parseRedriveArguments(['--dry-run'], now)).toMatchObject({ mode: 'dry-run' });
    expect(() => parseRedriveArguments(['--list', '--dry-run'], now)).toThrow(/exclude each other/);
  });
});
