/**
 * The commands the bonus decider takes. They are the bus commands of `@reelstream/contracts`
 * after the ledger has looked up what a pure function cannot know: the time (`metadata.now`),
 * the ids it drew (issueId, transactionId), the operator's features and the catalog facts of
 * the games named. Nothing here reads a clock, a file or a generator.
 */
import type { OperatorTerms } from './registration-terms.js';
import type { BonusCallTerms } from './terms.js';

interface BonusCommandMetadata {
  /** When the command is decided, an ISO-8601 UTC instant. */
  readonly now: string;
}

interface Command<Type extends string, Data> {
  readonly type: Type;
  readonly data: Data;
  readonly metadata: BonusCommandMetadata;
}

/** What the catalog says about one game named in a registration. */
export interface CatalogGameFacts {
  readonly gameId: number;
  readonly providerId: number;
  readonly supportsFreeSpins: boolean;
  /** Whether its paid spins can be steered to deliver a Regular Bonus Call (ADR 0012). */
  readonly supportsRegularBonusCall: boolean;
  /** The game's bet levels in the registration's currency, minor units (none when the currency cannot express them). */
  readonly betLevelsMinor: readonly number[];
}

/** The catalog facts a registration is checked against (D4); games the catalog lacks are simply absent. */
export interface CatalogFacts {
  readonly providerExists: boolean;
  readonly games: readonly CatalogGameFacts[];
}

export interface OperatorFeatures {
  /** D3: bonusType 2 is refused unless this is on. */
  readonly regularBonusCall: boolean;
}

/** The terms asked for (spinAmount and baseBetAmountMinor are ignored for bonusType 2), with what the ledger looked up. */
export type RegisterBonusCall = Command<
  'RegisterBonusCall',
  BonusCallTerms & {
    readonly catalog: CatalogFacts;
    readonly features: OperatorFeatures;
    /** The operator's allowed currencies and limits. */
    readonly terms: OperatorTerms;
  }
>;

export type CancelBonusCall = Command<'CancelBonusCall', { readonly issueId: number }>;

export type StartFreeSpin = Command<
  'StartFreeSpin',
  {
    readonly issueId: number;
    readonly gameId: number;
    readonly roundId: number;
    /** The currency of the game session that plays the spin; a bonus call is played only in its own (D6 amended). */
    readonly currency?: string;
  }
>;

export type SettleFreeSpin = Command<
  'SettleFreeSpin',
  {
    readonly issueId: number;
    readonly roundId: number;
    /** What the reels paid; the decider caps it by the win cap left. */
    readonly rawWinMinor: number;
    /** Drawn by the ledger for this spin's `win` callback; fixed in FreeSpinSettled. */
    readonly transactionId: number;
  }
>;

/**
 * A paid spin of the player steered by the Regular Bonus Call (ADR 0012), once the operator took its
 * bet: what the game selected for it (the reels' win, a top-up when it completes, the outcome).
 */
export type SettleRegularSpin = Command<
  'SettleRegularSpin',
  {
    readonly issueId: number;
    readonly roundId: number;
    readonly gameId: number;
    readonly betMinor: number;
    readonly reelWinMinor: number;
    readonly topUpMinor: number;
    /** The engine's record of the round (opaque JSON here). */
    readonly outcome: unknown;
    readonly currency?: string;
  }
>;

export type ExpireBonusCall = Command<'ExpireBonusCall', { readonly issueId: number }>;

export type BonusDomainCommand =
  RegisterBonusCall | CancelBonusCall | StartFreeSpin | SettleFreeSpin | SettleRegularSpin | ExpireBonusCall;
