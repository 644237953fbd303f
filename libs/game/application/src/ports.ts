/**
 * What the round and session use cases need from outside, as interfaces: the wallet-dispatcher
 * (bets and betwins), the bonus rules (free spins, the active bonus: decided on the player's bonus
 * stream, ADR 0006) and a log. The adapters are in @reelstream/game-adapters; the clock, ids and
 * event store are the platform's ports, the RNG is the game domain's.
 */
import type {
  BonusCallRecord,
  BonusCallStatusName,
  Refusal,
  SettledFreeSpin,
  SettleFreeSpinData,
  StartedFreeSpin,
  StartFreeSpinData,
  SteeredChoice,
  SteeredSpinRequest,
  SteeringView,
  WalletReply,
} from '@reelstream/contracts';
import type { StakeRequest } from '@reelstream/game-domain';

export type { StakeRequest };

export interface WalletPort {
  /** The dispatcher's answer to a bet or betwin; a request sent again with its transactionId gets the same answer. */
  stake(request: StakeRequest): Promise<WalletReply>;
  /**
   * No answer: none in time, or the bet could not be sent for now. The outcome is unknown and the
   * round is left to the resolver.
   */
  isUnanswered(error: unknown): error is Error;
}

/** The decision on the player's bonus stream: the first one taken for the round, whoever asks again. */
export interface SteeredSpinDecision {
  readonly issueId: number;
  readonly callAmountMinor: number;
  /** The bonus call's status once the decision is on its stream (a bet in flight may be decided after it ended). */
  readonly status: BonusCallStatusName;
  readonly roundId: number;
  readonly spinNumber: number;
  readonly reelWinMinor: number;
  readonly topUpMinor: number;
  readonly winMinor: number;
  readonly totalWinMinor: number;
  readonly outcome: unknown;
  readonly completed: boolean;
}

/**
 * What a spin asks of the player's bonus: the active bonus call (D21), a free spin's start and settle,
 * a steered spin's decision. Decided in this process on the player's bonus stream (ADR 0006) by the
 * bonus context's application API; each answers its result or the refusal of the bonus rules.
 */
export interface PlayerBonusPort {
  /** The player's active bonus call, whatever game it is for; null when the player has none. */
  active(operatorId: string, playerId: string): Promise<BonusCallRecord | null>;
  /** Idempotent by roundId: a started round is answered again, `replayed`. */
  startFreeSpin(data: StartFreeSpinData, correlationId: string): Promise<StartedFreeSpin | Refusal>;
  /** Idempotent by roundId: a settled round keeps its first win and transactionId. */
  settleFreeSpin(data: SettleFreeSpinData, correlationId: string): Promise<SettledFreeSpin | Refusal>;
  /**
   * No answer: the player's stream kept changing through every retry. Nothing was decided; asking
   * again is safe.
   */
  isUnanswered(error: unknown): boolean;
  /**
   * Decides on the player's bonus stream what a steered round delivers, calling `choose` with what is
   * left (again after a conflict); a round already decided answers its decision without calling it.
   */
  settleSteeredSpin(
    request: SteeredSpinRequest,
    choose: (view: SteeringView) => SteeredChoice,
    correlationId: string,
  ): Promise<SteeredSpinDecision | Refusal>;
}

/** Structured logging as `@reelstream/platform-telemetry`'s Logger does it (that lib is not a dependency of this layer). */
export interface GameLog {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}
