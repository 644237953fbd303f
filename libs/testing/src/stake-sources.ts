/**
 * The stored event a test's bet or betwin comes from: its round's RoundStarted, written as the
 * game-server writes it before it publishes the request (the dispatcher sends no bet or betwin
 * without one). Tests that publish stakes straight on the bus use it so that only the forged
 * stakes they mean to forge are refused.
 */
import { randomUUID } from 'node:crypto';
import {
  eventToAppend,
  roundStream,
  type RoundEvent,
  type WalletBetRequest,
  type WalletBetwinRequest,
} from '@reelstream/contracts';
import { replayStored } from '@reelstream/game-domain';
import type { EventStore } from '@reelstream/platform-ports';

/** The instant game whose pre-played outcome a betwin's RoundStarted carries. */
const BETWIN_MODEL = 'lucky-wheel';

/**
 * A Lucky Wheel record of `betMinor` that replays to a win of `winMinor`: found by trying the
 * wheel's positions, since a betwin's win must be one the game can pay (a multiple of a tenth of
 * the bet by one of the wheel's multipliers).
 */
export function betwinOutcome(
  betMinor: number,
  winMinor: number,
): { modelId: string; profile: 'standard'; betMinor: number; draws: number[] } {
  for (let draw = 0; draw < 1_000; draw += 1) {
    const record = { modelId: BETWIN_MODEL, profile: 'standard' as const, betMinor, draws: [draw] };
    try {
      if (replayStored(record).winMinor === winMinor) return record;
    } catch {
      // Not a position of the wheel: the next.
    }
  }
  throw new RangeError(`no Lucky Wheel round of a ${betMinor} bet wins ${winMinor}`);
}

/** Appends the RoundStarted of `stake`'s round (the stream must not exist yet) and returns the stake. */
export async function recordStakeSource<Stake extends WalletBetRequest | WalletBetwinRequest>(
  store: EventStore,
  stake: Stake,
): Promise<Stake> {
  const common = {
    roundId: stake.roundId,
    sessionToken: `test-session-${String(stake.roundId).padStart(16, '0')}`,
    operatorId: stake.operatorId,
    playerId: stake.playerId,
    providerId: stake.providerId,
    gameId: stake.gameId,
    kind: 'paid' as const,
    currency: stake.currency,
    bonusId: stake.bonusId,
    rtpProfile: 'standard' as const,
    startedAt: stake.requestedAt,
    transactionId: stake.transactionId,
  };
  const started: RoundEvent = {
    type: 'RoundStarted',
    data:
      stake.command === 'bet'
        ? { ...common, betMinor: stake.amountMinor, isBonusBusy: stake.isBonusBusy }
        : { ...common, betMinor: stake.betMinor, outcome: betwinOutcome(stake.betMinor, stake.winMinor) },
  };
  const context = {
    correlationId: `round-${stake.roundId}`,
    causationId: `round-${stake.roundId}`,
    operatorId: stake.operatorId,
    occurredAt: stake.requestedAt,
  };
  await store.append(roundStream(stake.roundId), [{ ...eventToAppend(started, context), eventId: randomUUID() }], {
    expectedRevision: 'no_stream',
  });
  return stake;
}
