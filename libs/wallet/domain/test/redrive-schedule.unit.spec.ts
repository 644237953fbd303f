import { describe, expect, it } from '@jest/globals';
import type { WalletTxEvent } from '@reelstream/contracts';
import { nextRedriveAt, redriveScheduleOver, scheduledRedriveApplies } from '../src/index.js';
import { attempted, bet, failedWith, now, requested, stateOf, win } from './fixtures.js';

/** Every minute, for two minutes after the first dead letter. */
const schedule = { everySeconds: 60, forSeconds: 120 };

const deadLettered = (at: string): WalletTxEvent => ({
  type: 'WinDeadLettered',
  data: { attempts: 3, lastError: 'timeout', at, reason: 'delivery_failed' },
});
const redriven = attempted(4, { redrive: true });
/** The win, dead-lettered at each of `times`, re-driven in between. */
const winDeadLetteredAt = (...times: string[]) =>
  stateOf([
    requested(win),
    attempted(1),
    failedWith(1, true),
    ...times.flatMap((at, index) => (index === 0 ? [deadLettered(at)] : [redriven, deadLettered(at)])),
  ]);

describe('nextRedriveAt: when the schedule re-drives a dead-lettered win', () => {
  it('everySeconds after the last dead letter', () => {
    expect(nextRedriveAt(winDeadLetteredAt('2026-05-01T10:00:00.000Z'), schedule)).toBe('2026-05-01T10:01:00.000Z');
  });

  it('a re-drive that falls exactly at the end of forSeconds still happens; one past it does not', () => {
    const lastInWindow = winDeadLetteredAt('2026-05-01T10:00:00.000Z', '2026-05-01T10:01:00.000Z');
    expect(nextRedriveAt(lastInWindow, schedule)).toBe('2026-05-01T10:02:00.000Z');
    const pastWindow = winDeadLetteredAt('2026-05-01T10:00:00.000Z', '2026-05-01T10:01:00.001Z');
    expect(nextRedriveAt(pastWindow, schedule)).toBeUndefined();
  });

  it('none while the win is being re-driven, nor for a record that is not a win', () => {
    const redriving = stateOf([requested(win), attempted(1), failedWith(1, true), deadLettered(now), redriven]);
    expect(redriving.deadLetteredAt).toBe(now);
    expect(nextRedriveAt(redriving, schedule)).toBeUndefined();
    expect(nextRedriveAt(stateOf([requested(bet), deadLettered(now)]), schedule)).toBeUndefined();
  });

  it('none when a dead letter’s time cannot be read', () => {
    expect(nextRedriveAt(winDeadLetteredAt('not a time', '2026-05-01T10:01:00.000Z'), schedule)).toBeUndefined();
    expect(nextRedriveAt(winDeadLetteredAt('2026-05-01T10:00:00.000Z', 'not a time'), schedule)).toBeUndefined();
  });
});

describe('redriveScheduleOver: a dead-lettered win the schedule leaves to a person', () => {
  it('once the next re-drive would fall past forSeconds', () => {
    const pastWindow = winDeadLetteredAt('2026-05-01T10:00:00.000Z', '2026-05-01T10:01:30.000Z');
    expect(redriveScheduleOver(pastWindow, schedule)).toBe(true);
  });

  it('not while a re-drive is still scheduled', () => {
    expect(redriveScheduleOver(winDeadLetteredAt('2026-05-01T10:00:00.000Z'), schedule)).toBe(false);
  });

  it('not for a win being re-driven, nor for a bet', () => {
    const redriving = stateOf([requested(win), attempted(1), failedWith(1, true), deadLettered(now), redriven]);
    expect(redriveScheduleOver(redriving, schedule)).toBe(false);
    expect(redriveScheduleOver(stateOf([requested(bet)]), schedule)).toBe(false);
  });
});

describe('scheduledRedriveApplies: whether a scheduled re-drive of dead letter n still applies', () => {
  it('to the win standing at that dead letter, and not at another one', () => {
    const once = winDeadLetteredAt('2026-05-01T10:00:00.000Z');
    expect(scheduledRedriveApplies(once, 1)).toBe(true);
    const twice = winDeadLetteredAt('2026-05-01T10:00:00.000Z', '2026-05-01T10:01:00.000Z');
    expect(scheduledRedriveApplies(twice, 1)).toBe(false);
    expect(scheduledRedriveApplies(twice, 2)).toBe(true);
  });

  it('to the same re-drive interrupted before its outcome: it goes on from the record', () => {
    const interrupted = stateOf([requested(win), attempted(1), failedWith(1, true), deadLettered(now), redriven]);
    expect(interrupted.status).toBe('pending');
    expect(scheduledRedriveApplies(interrupted, 1)).toBe(true);
  });

  it('not once the re-drive delivered the win', () => {
    const delivered = stateOf([
      requested(win),
      attempted(1),
      failedWith(1, true),
      deadLettered(now),
      redriven,
      { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 500, at: now } },
    ]);
    expect(scheduledRedriveApplies(delivered, 1)).toBe(false);
  });

  it('never to a bet', () => {
    expect(scheduledRedriveApplies(stateOf([requested(bet)]), 0)).toBe(false);
  });
});
