/**
 * A free spin of a Free Spin Bonus (docs/architecture.md flow 4): what the game-server asks of the
 * player's bonus stream and what it is answered. Decided in the game-server's own process with the
 * ledger's decider (ADR 0006), so no bus message carries it; the game's port and the bonus use case
 * share these shapes.
 */

/** Start a round of the player's bonus call: idempotent by roundId. */
export interface StartFreeSpinData {
  readonly operatorId: string;
  readonly playerId: string;
  readonly issueId: number;
  readonly gameId: number;
  readonly roundId: number;
  /**
   * The game session's currency: a bonus call of another currency is refused with
   * BONUS_CURRENCY_MISMATCH (D6 amended). The game-server always sends it.
   */
  readonly currency?: string;
}

/** The round started: its number under the bonus and the terms it is played on. */
export interface StartedFreeSpin {
  readonly issueId: number;
  readonly roundId: number;
  readonly gameId: number;
  readonly spinNumber: number;
  readonly currency: string;
  readonly baseBetAmountMinor: number;
  readonly winCapLeftMinor: number;
  /** true when this round had already been started (a retried start). */
  readonly replayed: boolean;
}

/** Settle a started round with its raw win: idempotent by roundId. */
export interface SettleFreeSpinData {
  readonly operatorId: string;
  readonly playerId: string;
  readonly issueId: number;
  readonly roundId: number;
  /** The raw win of the round; the ledger's decider caps it by the win cap left. */
  readonly winMinor: number;
}

/** The round settled: the win credited and what is left of the bonus call. */
export interface SettledFreeSpin {
  readonly issueId: number;
  readonly roundId: number;
  readonly spinNumber: number;
  /** The win credited: the raw win capped by the win cap left. */
  readonly winMinor: number;
  readonly totalWinMinor: number;
  readonly spinsLeft: number;
  /** The transactionId of the spin's `win` (fixed in FreeSpinSettled): the game-server shows the win pending until it is answered. */
  readonly transactionId: number;
  /** true when this spin completed the bonus call (spins used or cap reached, D20). */
  readonly completed: boolean;
  readonly replayed: boolean;
}
