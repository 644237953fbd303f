/**
 * Expiry in real time (docs/architecture.md flow 6): a bonus call is expired within 1 s of its expireAt — with
 * the ledger running, and with the ledger stopped across its expireAt. The 1 s is asserted on the
 * expiredAt the ledger records; expireAt lies far enough ahead that the set-up (a free spin, a
 * stop) is done before it even on a busy machine, and that set-up is checked, not assumed.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@reelstream/testing';
import { accepted, OPERATOR, registration } from './bonus-requests.js';
import { LedgerHarness } from './ledger-harness.js';

const running = new LedgerHarness();
const restarted = new LedgerHarness();

beforeAll(async () => {
  await Promise.all([running.open(), restarted.open()]);
  await Promise.all([running.startLedger(), restarted.startLedger()]);
});
afterAll(() => Promise.all([running.close(), restarted.close()]));

async function registerExpiringIn(harness: LedgerHarness, ms: number, playerId: string) {
  const expireAt = new Date(Date.now() + ms).toISOString();
  const { issueId } = accepted(
    await harness.bonus.register(registration({ platformId: `expiry-${playerId}`, playerId, spinAmount: 4, expireAt })),
  );
  return { issueId, expireAt };
}

describe('expiry within 1 s of expireAt', () => {
  it('expires a bonus call at its expireAt, forfeiting its unused spins and keeping its wins', async () => {
    const { client, bonus } = running;
    const { issueId, expireAt } = await registerExpiringIn(running, 4_000, 'expiring_player');
    accepted(
      await bonus.startFreeSpin({
        operatorId: OPERATOR,
        playerId: 'expiring_player',
        issueId,
        gameId: 101,
        roundId: 11,
      }),
    );
    accepted(
      await bonus.settleFreeSpin({
        operatorId: OPERATOR,
        playerId: 'expiring_player',
        issueId,
        roundId: 11,
        winMinor: 300,
      }),
    );
    expect(await client.ok('GetBonusCall', { operatorId: OPERATOR, issueId })).toMatchObject({ status: 'active' });
    expect(Date.now()).toBeLessThan(Date.parse(expireAt));

    const expired = await eventually(async () => {
      const status = await client.ok('GetBonusCall', { operatorId: OPERATOR, issueId });
      expect(status.status).toBe('expired');
      return status;
    }, 10_000);
    const lateness = Date.parse(expired.expiredAt as string) - Date.parse(expireAt);
    expect(lateness).toBeGreaterThanOrEqual(0);
    expect(lateness).toBeLessThan(1_000);
    expect(expired).toMatchObject({ spinsUsed: 1, totalWinMinor: 300, openRoundId: null });
    const stream = await running.backends.store.readStream('playerBonus-demo-expiring_player');
    expect(stream.at(-1)).toMatchObject({
      type: 'BonusCallExpired',
      data: { issueId, spinsForfeited: 3, totalWinMinor: 300 },
    });
    expect(
      await bonus.startFreeSpin({
        operatorId: OPERATOR,
        playerId: 'expiring_player',
        issueId,
        gameId: 101,
        roundId: 12,
      }),
    ).toMatchObject({ code: 'BONUS_EXPIRED' });
  });

  it('expires it on restart when the ledger was down across its expireAt, within 1 s of the restart', async () => {
    const { issueId, expireAt } = await registerExpiringIn(restarted, 3_000, 'downtime_player');
    await restarted.stopLedger();
    const stream = 'playerBonus-demo-downtime_player';
    // Down across expireAt: stopped before it (nothing expired it yet), back only after it.
    expect((await restarted.backends.store.readStream(stream)).map((event) => event.type)).toEqual([
      'BonusCallRegistered',
    ]);
    expect(Date.now()).toBeLessThan(Date.parse(expireAt));
    await eventually(() => expect(Date.now()).toBeGreaterThan(Date.parse(expireAt) + 100), 5_000);
    const restartedAt = Date.now();
    await restarted.startLedger();

    const expired = await eventually(async () => {
      const status = await restarted.client.ok('GetBonusCall', { operatorId: OPERATOR, issueId });
      expect(status.status).toBe('expired');
      return status;
    }, 10_000);
    expect(Date.parse(expired.expiredAt as string) - restartedAt).toBeLessThan(1_000);
    expect(Date.parse(expired.expiredAt as string)).toBeGreaterThan(Date.parse(expireAt));
    expect((await restarted.backends.store.readStream(stream)).map((event) => event.type)).toEqual([
      'BonusCallRegistered',
      'BonusCallExpired',
    ]);
  });
});
