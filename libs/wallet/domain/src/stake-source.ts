/**
 * The rule a bet or betwin passes before it is sent: the bus alone cannot move money, so a stake
 * must be the one its round's RoundStarted fixed. The game-server stores RoundStarted (with the
 * bet's transactionId, the stake, and a betwin's pre-played outcome) before it publishes the
 * request, and rebuilds the request from it (`stakeRequestOf`, game-domain); the dispatcher
 * rebuilds it the same way and compares every field: operator, player, round, transaction, game,
 * currency, bonusId, the amounts (a betwin's win replayed from the stored outcome) and the time.
 * Reading the event is the application's (`WinSourceChecker.checkStake`); comparing is decided here.
 */
import type { RoundStarted } from '@reelstream/contracts';
import { stakeRequestOf } from '@reelstream/game-domain';
import { deadlineOf } from './deadline.js';
import type { StakeRefusalReason, StakeRequest } from './state.js';

export type StakeSourceCheck = { ok: true } | { ok: false; reason: StakeRefusalReason; detail: string };

function refused(reason: StakeRefusalReason, detail: string): StakeSourceCheck {
  return { ok: false, reason, detail };
}

function withDeadline(request: StakeRequest): Record<string, unknown> {
  return { ...request, deadline: deadlineOf(request) };
}

/** A bet or betwin against the RoundStarted of its round (`undefined`: the round has none). */
export function checkStake(request: StakeRequest, started: RoundStarted['data'] | undefined): StakeSourceCheck {
  const what = `${request.command} ${request.transactionId}`;
  if (!started) return refused('source_not_found', `${what}: round ${request.roundId} has no RoundStarted`);
  if (started.kind !== 'paid' || started.transactionId === undefined)
    return refused('source_mismatch', `${what}: round ${request.roundId} is a ${started.kind} round without a bet`);
  let expected: StakeRequest;
  try {
    expected = stakeRequestOf(started);
  } catch (error) {
    // A stored outcome that replays to no round: nothing this request could match.
    return refused('source_mismatch', `${what}: round ${request.roundId}: ${(error as Error).message}`.slice(0, 1_000));
  }
  // A request written before deadlines were carried is due 3 s after requestedAt (`deadlineOf`):
  // compared as such, so it matches the RoundStarted that now fixes the same deadline.
  const expectedFields = withDeadline(expected);
  const requestFields = withDeadline(request);
  const fields = new Set([...Object.keys(expectedFields), ...Object.keys(requestFields)]);
  const differ = [...fields]
    .filter((field) => expectedFields[field] !== requestFields[field])
    .map((field) => `${field} ${String(requestFields[field])} (RoundStarted: ${String(expectedFields[field])})`);
  if (differ.length === 0) return { ok: true };
  return refused('source_mismatch', `${what} differs from round-${request.roundId}@0: ${differ.join(', ')}`);
}
