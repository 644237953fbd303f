/**
 * A balance the operator's wallet answers that no player can have (docs/adr/0024-implausible-wallet-balances.md)
 * is not shown: the spin and the session show no balance while it is the wallet's last answer, and a
 * warning and a counter name it once. The sandbox wallet stands in for a broken one: it answers a
 * bet it applied with a negative balance (a fault rule's body), or holds a balance above the ceiling.
 */
import { describe, expect, it } from '@jest/globals';
import { playerSessionResponse, spinResponse } from '@reelstream/contracts';
import { eventually } from '@reelstream/testing';
import { Stack } from './support/stack.js';

/** Above 10,000 EUR the page shows no balance: a ceiling configured lower than the default. */
const stack = Stack.forTests({ gameServer: { balanceCeilingUnits: 10_000 } });

const warnings = () =>
  stack.logs
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => String(line['msg']).includes('balance no player can have'));

describe('a balance no player can have', () => {
  it('is not shown, while it is the last answer; a plausible answer shows again', async () => {
    const player = 'broken_wallet_player';
    const { token } = await stack.launch(player, 101);
    const session = async () => playerSessionResponse.parse((await stack.session(token)).body).data;
    // The wallet's balance is set by hand only once the last spin's win is answered, so no win lands after it.
    const settled = () => eventually(async () => expect((await session()).pendingWin).toBe(0), 10_000);

    stack.fund(player, 50);
    expect(spinResponse.parse((await stack.spin(token, { bet: 1 })).body).data).toMatchObject({ balance: 49 });
    expect(await session()).toMatchObject({ balance: 49 });

    await settled();
    // Negative: the wallet takes the bet and answers OK with a balance of -5.00.
    stack.sandbox.faults.add({
      playerId: player,
      command: 'bet',
      malformedBody: '{"balance": -5, "statusCode": "OK"}',
      applyFirst: true,
      times: 1,
    });
    const overdrawn = spinResponse.parse((await stack.spin(token, { bet: 1 })).body).data;
    expect(overdrawn.balance).toBeNull();
    expect(await session()).toMatchObject({ balance: null });
    expect(warnings().at(-1)).toMatchObject({
      operatorId: 'casino-t',
      playerId: player,
      currency: 'EUR',
      balanceMinor: -500,
      reason: 'negative',
    });

    // Above the ceiling: the bet is taken, and its answer is not shown.
    await settled();
    stack.fund(player, 25_000);
    const rich = spinResponse.parse((await stack.spin(token, { bet: 1 })).body).data;
    expect(rich.balance).toBeNull();
    expect(await session()).toMatchObject({ balance: null });
    expect(warnings().at(-1)).toMatchObject({ playerId: player, reason: 'above_ceiling' });
    expect(warnings().at(-1)?.['balanceMinor']).toBeGreaterThanOrEqual(2_499_900);

    // A plausible answer is shown again; nothing more is reported.
    await settled();
    const reported = warnings().length;
    stack.fund(player, 30);
    expect(spinResponse.parse((await stack.spin(token, { bet: 1 })).body).data).toMatchObject({ balance: 29 });
    expect(await session()).toMatchObject({ balance: 29 });
    expect(warnings()).toHaveLength(reported);
  });
});
