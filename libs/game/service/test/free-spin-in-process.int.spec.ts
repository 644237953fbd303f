/**
 * ADR 0006: the game-server decides a free spin on the player's bonus stream, in its own process —
 * no message to the bonus-ledger on `bonus.commands` for the session view, the active bonus, the
 * start or the settle — and the ledger follows the stream: its read model counts the spin and its
 * relay sends the win. Real gateway, ledger, dispatcher, sandbox and game-server on embedded back ends.
 */
import { expect, it } from '@jest/globals';
import { playerBonusStream, spinResponse } from '@reelstream/contracts';
import { eventually } from '@reelstream/testing';
import { OPERATOR_ID, Stack } from './support/stack.js';

const stack = Stack.forTests();

/** Messages ever published to the ledger's command topic (the bus shares the event store's file). */
function ledgerMessages(): number {
  return stack.store.database
    .prepare<[], number>("SELECT count(*) FROM bus_messages WHERE topic = 'bonus.commands'")
    .pluck()
    .get() as number;
}

it('sends the bonus-ledger nothing; FreeSpinStarted and FreeSpinSettled land in the player stream and the ledger follows them', async () => {
  const issueId = await stack.registerFreeSpins({ playerId: 'in_process', spinAmount: 2 });
  const { token } = await stack.launch('in_process', 101);
  const asked = ledgerMessages();

  expect((await stack.session(token)).status).toBe(200);
  const response = await stack.spin(token, { issueId });
  expect(response.status).toBe(200);
  const result = spinResponse.parse(response.body).data;
  expect(result).toMatchObject({ kind: 'free', bonus: { issueId, spinNumber: 1, spinsLeft: 1, completed: false } });
  expect(ledgerMessages()).toBe(asked);

  const stream = await stack.store.readStream(playerBonusStream(OPERATOR_ID, 'in_process'));
  expect(stream.map((event) => event.type)).toEqual(['BonusCallRegistered', 'FreeSpinStarted', 'FreeSpinSettled']);
  const [, started, settled] = stream;
  expect(started?.data).toMatchObject({ issueId, roundId: result.roundId, gameId: 101, spinNumber: 1 });
  expect(settled?.data).toMatchObject({ issueId, roundId: result.roundId, winMinor: Math.round(result.win * 100) });
  // One spin request: both events carry its correlation id and the operator, as the ledger wrote them.
  expect(started?.metadata).toMatchObject({ operatorId: OPERATOR_ID });
  expect(settled?.metadata.correlationId).toBe(started?.metadata.correlationId);

  // The ledger's read model (the gateway's status) and relay (the win, bonusId = issueId) follow the stream.
  expect((await stack.bonusStatus(issueId)).body.data).toMatchObject({ spinsUsed: 1, spinsLeft: 1, status: 'active' });
  const win = await eventually(() => {
    const found = stack.publishedFor('in_process').filter((request) => request.command === 'win');
    expect(found).toHaveLength(1);
    return found[0];
  });
  expect(win).toMatchObject({ roundId: result.roundId, bonusId: issueId, isRoundFinished: true });
});
