/**
 * The reports' rows and how each column prints. Money is integer minor units in every
 * row; the formats print it with its currency's exponent. The row types are the contract between
 * the folds, the formats (table, csv, ndjson, json, html) and the analyst guide.
 */

export const REPORT_NAMES = ['bonus-outcomes', 'game-performance', 'agent', 'wallet-delivery'] as const;
export type ReportName = (typeof REPORT_NAMES)[number];

/**
 * How a cell prints: `money` with the row's `currency` exponent, `ratio` with 4 decimals,
 * `duration` in whole seconds, `instant` as stored (ISO-8601 UTC), `null` as an empty cell.
 */
export type CellKind = 'text' | 'integer' | 'money' | 'ratio' | 'seconds' | 'instant';

export interface Column<Row> {
  readonly key: keyof Row & string;
  readonly header: string;
  readonly kind: CellKind;
  /** What the column means, for `--help` and the guide. */
  readonly description: string;
}

export interface Report<Row = unknown> {
  readonly name: ReportName;
  readonly title: string;
  readonly columns: readonly Column<Row>[];
  readonly rows: readonly Row[];
  /** What the log could not answer, or how rows were counted: printed under the table. */
  readonly notes: readonly string[];
}

/** One bonus call: spins granted and used, total win against its cap, how and when it ended. */
export interface BonusOutcomeRow {
  operatorId: string;
  playerId: string;
  issueId: number;
  platformId: string;
  bonusType: number;
  providerId: number;
  gameIds: string;
  currency: string;
  spinsGranted: number | null;
  spinsUsed: number;
  /** What the free spins credited (capped). */
  totalWinMinor: number;
  /** The call amount: the most the bonus may pay. */
  winCapMinor: number;
  status: 'active' | 'completed' | 'expired' | 'canceled';
  /** Why it completed (`spins_used`, `win_cap_reached`, `target_reached`), or `expired`/`canceled`; empty while active. */
  reason: string | null;
  spinsForfeited: number | null;
  registeredAt: string;
  closedAt: string | null;
  durationSeconds: number | null;
}

/**
 * How a round's outcome came to be: `standard` and `streamer` are random draws on the profile the
 * session plays (never mixed), `steered` paid spins had their outcome chosen by a Regular Bonus
 * Call: no RTP is measured on them.
 */
export type Segment = 'standard' | 'streamer' | 'steered';

/** One game, model, segment and currency. */
export interface GamePerformanceRow {
  providerId: number;
  gameId: number;
  gameName: string;
  /** The game model id recorded in the rounds' outcomes (`modelId`). */
  model: string;
  segment: Segment;
  currency: string;
  /** Settled paid rounds. */
  rounds: number;
  turnoverMinor: number;
  winsMinor: number;
  /** wins / turnover of the paid rounds; null without turnover and for steered spins. */
  measuredRtp: number | null;
  /** The 95 % confidence interval of measuredRtp; null where it is. */
  rtpLow95: number | null;
  rtpHigh95: number | null;
  /** `yes` when too few rounds to compare measuredRtp with its target (rtp-interval.ts), else `no`; empty without RTP. */
  insufficientRounds: 'yes' | 'no' | null;
  /** The catalogue's RTP for the segment (`rtp`, or `streamerRtp` for streamers); null for a game not in the catalogue and for steered spins. */
  theoreticalRtp: number | null;
  /** Paid rounds with a win / paid rounds. */
  hitRate: number | null;
  freeRounds: number;
  freeWinsMinor: number;
  canceledRounds: number;
}

/** One operator, day (in the operator's time zone) and currency; streamer sessions excluded. */
export interface AgentRow {
  operatorId: string;
  day: string;
  timeZone: string;
  currency: string;
  /** Bets the wallet accepted, less the ones canceled. */
  betsMinor: number;
  /** Wins the wallet credited (free-spin wins included). */
  winsMinor: number;
  /** bets − wins. */
  ggrMinor: number;
  freeSpinWinsMinor: number;
  /** Notional value given as free spins, no money moved: base bet × free spins settled that day. */
  bonusNotionalMinor: number;
  /** Money the bonuses paid: free-spin wins credited that day, plus what the Regular Bonus Calls that ended that day delivered. */
  bonusPaidMinor: number;
  players: number;
}

/** One operator and callback command. */
export interface WalletDeliveryRow {
  operatorId: string;
  command: string;
  /** Transactions requested (for `cancel`: cancels requested). */
  callbacks: number;
  attempts: number;
  /** Attempts after the first of their transaction. */
  retries: number;
  /** Transactions of this command that a cancel reverted (`bet`, `betwin`). */
  cancels: number;
  deadLetters: number;
  refused: number;
  succeeded: number;
  /** Transactions whose last attempt failed for good. */
  failedFinal: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  latencyP99Ms: number | null;
  latencyMaxMs: number | null;
  /** Every answer counted: `OK=12 ERR_NOT_ENOUGH_MONEY=1 error=2` (error: time-out, network, malformed reply). */
  outcomes: string;
}

export interface ReportRows {
  'bonus-outcomes': BonusOutcomeRow;
  'game-performance': GamePerformanceRow;
  agent: AgentRow;
  'wallet-delivery': WalletDeliveryRow;
}
