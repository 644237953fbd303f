/**
 * Forged bets and betwins on the bus, with a real dispatcher, the embedded bus and the operator
 * sandbox as the operators' wallet: each kind is published straight on `wallet.requests`, and none
 * may reach a wallet. A stake must match its round's RoundStarted (operator, player, round,
 * transaction, amounts, everything the game-server rebuilds its request from); one that does not is
 * answered non-OK, recorded as `StakeRefused`, logged at error and counted
 * (`reelstream_wallet_requests_refused_total`). The genuine stake of a round a forger copied still goes through.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  Headers,
  playerKey,
  Topics,
  type WalletBetRequest,
  type WalletBetwinRequest,
  type WalletRequest,
} from '@reelstream/contracts';
import { MetricNames } from '@reelstream/platform-telemetry';
import { eventually, installCollectingMeter, recordStakeSource } from '@reelstream/testing';
import { betRequest, nextId, startRig, type Rig } from './rig.js';

const meter = installCollectingMeter();
let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
}, 30_000);
afterAll(async () => {
  await rig?.stop();
  await meter.uninstall();
});

const betwin = (playerId: string, betMinor: number, winMinor: number): WalletBetwinRequest => ({
  command: 'betwin',
  transactionId: nextId(),
  operatorId: 'rig',
  playerId,
  roundId: nextId(),
  providerId: 2,
  gameId: 20,
  currency: 'EUR',
  bonusId: 0,
  requestedAt: new Date().toISOString(),
  betMinor,
  winMinor,
});

/** Every call any wallet of the sandbox received for these transactions (applied, refused, badly signed: all count). */
const walletCalls = (transactionIds: readonly number[]) =>
  transactionIds.reduce((sum, transactionId) => sum + rig.sandbox.views.requests({ transactionId }).length, 0);
const typesOf = async (transactionId: number) => (await rig.events(transactionId)).map((event) => event.type);
const refusalsCounted = async () =>
  (await meter.points<number>(MetricNames.walletRequestsRefused))
    .filter((point) => point.attributes['command'] !== 'win')
    .reduce((sum, point) => sum + point.value, 0);

describe('forged bets and betwins on the bus', () => {
  it('are refused, recorded and counted, and no wallet is called; the genuine stakes of the copied rounds still go through', async () => {
    rig.sandbox.views.setBalance('rig', 'victim', 'EUR', 10_000);
    rig.sandbox.views.setBalance('missigned', 'other_victim', 'EUR', 10_000);
    // Rounds a forger copies from: started by the game-server (RoundStarted stored), their stakes not sent yet.
    const genuineBet = await recordStakeSource(rig.store, betRequest('victim', 100));
    const genuineBetwin = await recordStakeSource(rig.store, betwin('victim', 200, 600));

    const forged: { kind: string; request: WalletRequest }[] = [
      // The reported betwin: a round that never existed, 0.10 staked, 777.00 won.
      { kind: 'betwin, no round', request: betwin('victim', 10, 77_700) },
      { kind: 'bet, no round', request: { ...betRequest('other_victim', 5_000, 'missigned') } },
      // Another operator's player debited under a genuine round's ids.
      {
        kind: 'bet, another operator and player',
        request: { ...genuineBet, operatorId: 'missigned', playerId: 'other_victim' } satisfies WalletBetRequest,
      },
      { kind: 'bet, inflated amount', request: { ...genuineBet, amountMinor: 1_000_000 } },
      { kind: 'bet, another transaction', request: { ...genuineBet, transactionId: nextId() } },
      { kind: 'betwin, inflated win', request: { ...genuineBetwin, winMinor: 77_700 } },
      { kind: 'betwin, smaller stake', request: { ...genuineBetwin, betMinor: 100 } },
      { kind: 'bet on a betwin round', request: { ...betRequest('victim', 200), roundId: genuineBetwin.roundId } },
    ];
    for (const { request } of forged) {
      const reply = await rig.request(request, 30_000, { forged: true });
      expect(reply).toMatchObject({
        transactionId: request.transactionId,
        statusCode: 'ERR_UNKNOWN',
        canceled: false,
        reason: expect.stringMatching(/^(bet|betwin) refused \((source_not_found|source_mismatch)\), not sent/),
      });
    }
    // The reported betwin once more, without reply-to, as a replaying attacker would: still refused, recorded once.
    const [replayed] = forged;
    if (!replayed) throw new Error('no forged request');
    await rig.requester.publish(Topics.walletRequests, {
      key: playerKey(replayed.request),
      value: replayed.request,
      headers: { [Headers.messageType]: 'betwin' },
    });
    const refusedLines = () =>
      rig.logs.filter((line) => line['level'] === 'error' && /refused/.test(String(line['msg'])));
    await eventually(() => expect(refusedLines().length).toBe(forged.length + 1));

    const transactionIds = [...new Set(forged.map(({ request }) => request.transactionId))];
    expect(walletCalls(transactionIds)).toBe(0);
    expect(rig.sandbox.views.accounts('rig', 'victim')[0]?.balanceMinor).toBe(10_000);
    expect(rig.sandbox.views.accounts('missigned', 'other_victim')[0]?.balanceMinor).toBe(10_000);
    for (const { request } of forged)
      expect((await rig.events(request.transactionId)).filter((event) => event.type === 'StakeRefused')).toEqual(
        expect.arrayContaining([expect.objectContaining({ data: expect.objectContaining({ request }) })]),
      );
    expect(await typesOf(replayed.request.transactionId)).toEqual(['StakeRefused']);
    expect(await refusalsCounted()).toBe(forged.length);
    console.log(
      `forged stakes: ${forged.length + 1} published (${forged.map(({ kind }) => kind).join('; ')}; the first twice), ` +
        `${walletCalls(transactionIds)} wallet calls, ${refusedLines().length} refusals logged, ${await refusalsCounted()} counted`,
    );

    // The genuine stakes of the copied rounds, as the game-server sends them: applied.
    expect(await rig.request(genuineBet)).toMatchObject({ statusCode: 'OK', balanceMinor: 9_900 });
    expect(await rig.request(genuineBetwin)).toMatchObject({ statusCode: 'OK', balanceMinor: 10_300 });
    expect(walletCalls([genuineBet.transactionId, genuineBetwin.transactionId])).toBe(2);
  });
});
