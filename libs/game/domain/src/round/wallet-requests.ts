/**
 * The wallet requests of a paid round (spec §6.1–§6.3; D21, docs/architecture.md flow 3): a `bet`, or a
 * `betwin` when the outcome is known before the stake (the instant game draws it into
 * RoundStarted), and the `win` of a settled bet (isRoundFinished, bonusId 0: a paid round has no
 * bonus). Rebuilt from the round's events alone, so a request sent again has the same fields and
 * the dispatcher answers it from its record.
 */
import {
  stakeDeadlineOf,
  walletWinRequest,
  type RoundSettled,
  type WalletBetRequest,
  type WalletBetwinRequest,
  type WalletWinRequest,
  type WinSource,
} from '@reelstream/contracts';
import { InvariantError } from '../model-error.js';
import type { RoundStartedData } from './round-decider.js';
import { replayStored } from './stored-record.js';

export type StakeRequest = WalletBetRequest | WalletBetwinRequest;

/**
 * Whose money and which round, as every wallet request of a paid round names them: bonusId 0, or the
 * issueId of the Regular Bonus Call that steers the round (ADR 0012).
 */
function paidRoundParties(started: RoundStartedData) {
  return {
    operatorId: started.operatorId,
    playerId: started.playerId,
    roundId: started.roundId,
    providerId: started.providerId,
    gameId: started.gameId,
    currency: started.currency,
    bonusId: started.bonusId,
  };
}

/**
 * The bet (with D21's isBonusBusy as RoundStarted fixed it) or betwin of a started paid round, with
 * its deadline: 3 s after the spin was accepted (RoundStarted's startedAt), so the resolver's
 * request is the spin's, deadline included, and a dispatcher that takes either late never sends it.
 */
export function stakeRequestOf(started: RoundStartedData): StakeRequest {
  if (started.transactionId === undefined)
    throw new InvariantError(`paid round ${started.roundId} has no bet transaction`);
  const common = {
    transactionId: started.transactionId,
    ...paidRoundParties(started),
    requestedAt: started.startedAt,
    deadline: stakeDeadlineOf(started.startedAt),
  };
  if (started.outcome !== undefined) {
    return {
      command: 'betwin',
      ...common,
      betMinor: started.betMinor,
      winMinor: replayStored(started.outcome).winMinor,
    };
  }
  return { command: 'bet', ...common, amountMinor: started.betMinor, isBonusBusy: started.isBonusBusy ?? false };
}

/**
 * The win of a settled bet, naming the RoundSettled it comes from (the dispatcher checks the one
 * against the other); undefined when the round's win went with its betwin.
 */
export function paidRoundWinRequest(
  started: RoundStartedData,
  settled: RoundSettled['data'],
  source: WinSource,
): WalletWinRequest | undefined {
  if (settled.winTransactionId === undefined) return undefined;
  return walletWinRequest.parse({
    command: 'win',
    transactionId: settled.winTransactionId,
    ...paidRoundParties(started),
    requestedAt: settled.settledAt,
    amountMinor: settled.winMinor,
    isRoundFinished: true,
    source,
  });
}
