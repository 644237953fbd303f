/**
 * Expiry in real time (DESIGN flow 6): a bonus call with expireAt 2 s ahead is expired within
 * 3 s — with the ledger running, and with the ledger stopped across its expireAt.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually } from '@reelstream/testing';
import { OPERATOR, registration } from './bonus-requests.js';
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
  const registeredAt = Date.now();
  const { issueId } = await harness.client.ok('RegisterBonusCall', registration({ platformId: `expiry-${playerId}`, playerId, spinAmount: 4, expireAt }));
  return { issueId, expireAt, registeredAt };
}

describe('expiry within 1 s of expireAt', () => {
  it('expires a bonus call 2 s ahead within 3 s, forfeiting its unused spins and keeping its wins', async () => {
    const { client } = running;
    const { issueId, expireAt, registeredAt } = await registerExpiringIn(running, 2_000, 'expiring_player');
    await client.ok('StartFreeSpin', { operatorId: OPERATOR, playerId: 'expiring_player', issueId, gameId: 101, roundId: 11 });
    await client.ok('SettleFreeSpin', { operatorId: OPERATOR, playerId: 'expiring_player', issueId, roundId: 11, winMinor: 300 });
    expect(await client.ok('GetBonusCall', { operatorId: OPERATOR, issueId })).toMatchObject({ status: 'active' });

    const expired = await eventually(async () => {
      const status = await client.ok('GetBonusCall', { operatorId: OPERATOR, issueId });
      expect(status.status).toBe('expired');
      return status;
    }, 3_500);
    expect(Date.now() - registeredAt).toBeLessThan(3_000 + 250);
    const lateness = Date.parse(expired.expiredAt as string) - Date.parse(expireAt);
    expect(lateness).toBeGreaterThanOrEqual(0);
    expect(lateness).toBeLessThan(1_000);
    expect(expired).toMatchObject({ spinsUsed: 1, totalWinMinor: 300, openRoundId: null });
    const stream = await running.backends.store.readStream('playerBonus-demo-expiring_player');
    expect(stream.at(-1)).toMatchObject({ type: 'BonusCallExpired', data: { issueId, spinsForfeited: 3, totalWinMinor: 300 } });
    expect(await client.ask('StartFreeSpin', { operatorId: OPERATOR, playerId: 'expiring_player', issueId, gameId: 101, roundId: 12 })).toMatchObject({ ok: false, error: { code: 'BONUS_EXPIRED' } });
  });

  it('expires it on restart when the ledger was down across its expireAt, still within 3 s', async () => {
    const { issueId, expireAt, registeredAt } = await registerExpiringIn(restarted, 2_000, 'downtime_player');
    await restarted.stopLedger();
    // Down across expireAt: wait for the instant to pass while nothing runs.
    await eventually(() => expect(Date.now()).toBeGreaterThan(Date.parse(expireAt) + 100), 3_000);
    const restartedAt = Date.now();
    await restarted.startLedger();

    const expired = await eventually(async () => {
      const status = await restarted.client.ok('GetBonusCall', { operatorId: OPERATOR, issueId });
      expect(status.status).toBe('expired');
      return status;
    }, 3_000);
    expect(Date.now() - registeredAt).toBeLessThan(3_000 + 250);
    expect(Date.parse(expired.expiredAt as string) - restartedAt).toBeLessThan(1_000);
    expect(Date.parse(expired.expiredAt as string)).toBeGreaterThan(Date.parse(expireAt));
  });
});
