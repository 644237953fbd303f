/**
 * A paid round (docs/architecture.md flow 3): RoundStarted with its bet transaction → bet (or betwin) through
 * the wallet-dispatcher → on OK the outcome is settled: RoundSettled with the engine's record and
 * the transactionId of its win, which the round outbox publishes (the store is the outbox); on a
 * refusal RoundCanceled with the reason (the dispatcher delivers the cancel callback).
 *
 * The slot game draws its outcome only after the bet is accepted, so a canceled round never
 * carries a result. The instant game cannot: its betwin carries the win, so the outcome is drawn
 * first and kept in RoundStarted, and the request can be sent again identically.
 *
 * A slot round steered by the player's Regular Bonus Call (bonusId = its issueId,
 * docs/adr/0012-regular-bonus-call-outcomes.md) has its outcome chosen once the bet is accepted, from
 * what is left of the target, and decided on the player's bonus stream before RoundSettled: a round
 * interrupted between the two is settled later with the outcome that decision holds.
 */
import { isRefusal, type WalletReply } from '@reelstream/contracts';
import {
  betAccepted,
  paidRoundEnd,
  playRound,
  replayStored,
  selectSteeredSpin,
  storedRecord,
  type GameModel,
  type GameSession,
  type Profile,
  type RoundOutcome,
} from '@reelstream/game-domain';
import type { SteeredSpinDecision } from '../ports.js';
import type { ShownBalance } from '../sessions/balance-book.js';
import { refreshBalance, type RoundDeps } from './round-deps.js';
import type { RoundHistory, RoundStartedData } from './round-streams.js';

export interface PaidRoundInput {
  readonly session: GameSession;
  readonly model: GameModel;
  readonly profile: Profile;
  readonly betMinor: number;
  /** D21: the player has an active bonus call at the time of the bet. */
  readonly isBonusBusy: boolean;
  /** The Regular Bonus Call that steers this round (slot games only), if any. */
  readonly steeredBy?: number;
}

export type PaidRoundResult =
  | {
      readonly status: 'settled';
      readonly started: RoundStartedData;
      readonly outcome: RoundOutcome;
      readonly winMinor: number;
      readonly balance: ShownBalance;
      /** A steered round's decision on its Regular Bonus Call: the bonus's progress after it (ADR 0012). */
      readonly steered?: SteeredSpinDecision;
    }
  | {
      readonly status: 'canceled';
      readonly started: RoundStartedData;
      readonly answer: WalletReply | undefined;
      readonly reason: string;
      readonly balance: ShownBalance;
    };

export async function beginPaidRound(
  deps: RoundDeps,
  input: PaidRoundInput,
  correlationId: string,
): Promise<RoundStartedData> {
  const { session, model, profile, betMinor } = input;
  const roundId = deps.ids.next();
  const transactionId = deps.ids.next();
  const preplayed =
    model.kind === 'instant' ? { outcome: storedRecord(playRound({ model, profile, betMinor, rng: deps.rng })) } : {};
  const started: RoundStartedData = {
    roundId,
    sessionToken: session.token,
    operatorId: session.operatorId,
    playerId: session.playerId,
    providerId: session.providerId,
    gameId: session.gameId,
    kind: 'paid',
    currency: session.currency,
    betMinor,
    bonusId: model.kind === 'slot' ? (input.steeredBy ?? 0) : 0,
    rtpProfile: profile,
    startedAt: deps.clock.now().toISOString(),
    transactionId,
    ...(model.kind === 'instant' ? preplayed : { isBonusBusy: input.isBonusBusy }),
  };
  return deps.rounds.start(started, correlationId);
}

/**
 * Settles or cancels the round on the dispatcher's answer; returns what the round's stream ends with.
 * `late`: the resolver's answer to the bet of a round left open (its balance may be older than one shown).
 */
export async function completePaidRound(
  deps: RoundDeps,
  started: RoundStartedData,
  answer: WalletReply,
  correlationId: string,
  late = false,
): Promise<PaidRoundResult> {
  const { operatorId, playerId, currency } = started;
  if (answer.balanceMinor !== undefined)
    deps.balances.answered(operatorId, playerId, currency, answer.transactionId, answer.balanceMinor, late);
  const betwin = started.outcome !== undefined;
  // A slot's outcome is drawn only once the bet is taken: a canceled round never carries a result.
  const drawn = !betAccepted(answer)
    ? undefined
    : betwin
      ? { outcome: replayStored(started.outcome), topUpMinor: 0 }
      : started.bonusId !== 0
        ? await steeredOutcome(deps, started, correlationId)
        : {
            outcome: playRound({
              model: modelOf(deps, started),
              profile: started.rtpProfile,
              betMinor: started.betMinor,
              rng: deps.rng,
            }),
            topUpMinor: 0,
          };
  const end = paidRoundEnd({
    started,
    answer,
    now: deps.clock.now().toISOString(),
    ...(drawn === undefined ? {} : { outcome: drawn.outcome, topUpMinor: drawn.topUpMinor }),
    ...(drawn === undefined || betwin ? {} : { winTransactionId: deps.ids.next() }),
  });
  const { history } = await deps.rounds.finish(started, end, correlationId);
  // The answers to earlier wins are looked up before this round's own win, which is not even sent yet.
  await refreshBalance(deps, started);
  // A bet's win is credited by the dispatcher once the outbox sends it: pending until its answer is recorded
  // (a betwin's answer already includes it).
  if (history.end.type === 'RoundSettled' && history.end.data.winTransactionId !== undefined)
    deps.balances.winSent(operatorId, playerId, currency, history.end.data.winTransactionId, history.end.data.winMinor);
  const result = resultOf(history, answer, deps.balances.peek(operatorId, playerId, currency));
  const steered = drawn !== undefined && 'steered' in drawn ? drawn.steered : undefined;
  return result.status === 'settled' && steered !== undefined ? { ...result, steered } : result;
}

/**
 * The outcome of a steered round (ADR 0012): chosen by `selectSteeredSpin` from what the player's
 * bonus stream says is left, and decided there; a round decided before gets that decision's outcome.
 */
async function steeredOutcome(
  deps: RoundDeps,
  started: RoundStartedData,
  correlationId: string,
): Promise<{ outcome: RoundOutcome; topUpMinor: number; steered: SteeredSpinDecision }> {
  const model = modelOf(deps, started);
  const decided = await deps.bonus.settleSteeredSpin(
    {
      operatorId: started.operatorId,
      playerId: started.playerId,
      issueId: started.bonusId,
      roundId: started.roundId,
      gameId: started.gameId,
      betMinor: started.betMinor,
      currency: started.currency,
    },
    ({ targetLeftMinor, spinNumber }) => {
      const spin = selectSteeredSpin({
        model,
        profile: started.rtpProfile,
        betMinor: started.betMinor,
        targetLeftMinor,
        spinNumber,
        rng: deps.rng,
      });
      return { reelWinMinor: spin.outcome.winMinor, topUpMinor: spin.topUpMinor, outcome: storedRecord(spin.outcome) };
    },
    correlationId,
  );
  // The round's bonus refusing it is a broken invariant (the spin was steered by that bonus): the round stays open.
  if (isRefusal(decided))
    throw new Error(
      `round ${started.roundId}: bonus call ${started.bonusId} refused its steered spin: ${decided.code}`,
    );
  const outcome = replayStored(decided.outcome);
  if (outcome.winMinor !== decided.reelWinMinor)
    throw new Error(
      `round ${started.roundId}: the steered outcome pays ${outcome.winMinor}, not ${decided.reelWinMinor}`,
    );
  return { outcome, topUpMinor: decided.topUpMinor, steered: decided };
}

export function modelOf(deps: RoundDeps, started: RoundStartedData): GameModel {
  const model = deps.table.find(started.gameId)?.model;
  if (!model) throw new Error(`round ${started.roundId} is of game ${started.gameId}, which the catalog no longer has`);
  return model;
}

function resultOf(history: RoundHistory, answer: WalletReply | undefined, balance: ShownBalance): PaidRoundResult {
  const { started, end } = history;
  if (end?.type === 'RoundSettled') {
    const outcome = replayStored(end.data.outcome);
    return { status: 'settled', started, outcome, winMinor: end.data.winMinor, balance };
  }
  if (end?.type === 'RoundCanceled') return { status: 'canceled', started, answer, reason: end.data.reason, balance };
  throw new Error(`round ${started.roundId} has no end yet`);
}
