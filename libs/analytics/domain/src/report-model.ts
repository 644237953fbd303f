/**
 * The reports' rows and how each column prints. Money is integer minor units in every
 * row; the formats print it with its currency's exponent. The row types are the contract between
 * the folds, the formats (table, csv, ndjson, json, html) and the analyst guide.
 */

export const REPORT_NAMES = [
  'bonus-outcomes',
  'game-performance',
  'agent',
  'wallet-delivery',
  'campaigns',
  'bonus-return',
  'wallet-sla',
] as const;
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
  /** With `--by` only: the operator whose rounds the row counts (the period is in its zone). */
  operatorId?: string;
  /** With `--by` only: `YYYY-MM-DD` or `YYYY-MM-DDTHH:00±HH:MM` in the operator's zone, as wallet-sla's. */
  period?: string;
  /** With `--by` only: the operator's time zone. */
  timeZone?: string;
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
  /** With `--by` only: `YYYY-MM-DD` or `YYYY-MM-DDTHH:00±HH:MM` in the operator's zone, as wallet-sla's. */
  period?: string;
  /** With `--by` only: the operator's time zone. */
  timeZone?: string;
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

/** One campaign of one operator: what its registrations became. */
export interface CampaignRow {
  operatorId: string;
  campaignId: string;
  /** 1 Free Spin Bonus, 2 Regular Bonus Call (the campaign's terms). */
  bonusType: number;
  currency: string;
  /** Players the campaign request named. */
  players: number;
  /** Players whose bonus call was registered. */
  registered: number;
  refused: number;
  /** Refusals counted by error code: `PLAYER_BLOCKED=2 BONUS_BUSY=1`. */
  refusedByCode: string;
  /** Bonus calls with at least one spin started. */
  played: number;
  completed: number;
  expired: number;
  canceled: number;
  /** Expired or canceled without a spin. */
  endedUnplayed: number;
  /** Free spins started (a Regular Bonus Call's steered spins included). */
  spinsPlayed: number;
  /** Spins settled with a win. */
  winningSpins: number;
  /** What the spins credited (each spin's win after the cap): the campaign's cost. */
  bonusCostMinor: number;
}

/** Bonuses registered on one operator's day (its zone) in one currency, and what their players played in the N days after. */
export interface BonusReturnRow {
  operatorId: string;
  /** The day the bonuses were registered, in the operator's zone. */
  cohortDay: string;
  timeZone: string;
  currency: string;
  windowDays: number;
  bonuses: number;
  players: number;
  /** What the cohort's bonuses credited (each spin's win after the cap). */
  bonusCostMinor: number;
  /** Paid bets the wallet accepted in the players' windows, less those canceled. */
  turnoverMinor: number;
  /** Wins of paid rounds the wallet credited in the windows (free-spin wins are bonusCost). */
  winsMinor: number;
  /** turnover − wins. */
  ggrMinor: number;
  /** ggr − bonusCost: what the bonuses brought back, net of what they paid. */
  netMinor: number;
  /** Bonuses whose window had not ended when the replayed log (or --to) ended. */
  openWindows: number;
}

/** One operator, callback command and hour or day (the operator's zone): how fast and how well the wallet answered. */
export interface WalletSlaRow {
  operatorId: string;
  command: string;
  /** `YYYY-MM-DD` (by day) or `YYYY-MM-DDTHH:00±HH:MM` (by hour, with the zone's offset). */
  period: string;
  timeZone: string;
  /** The latency target the row is measured against, ms. */
  targetMs: number;
  /** Transactions requested in the period (cancel: cancels requested). */
  callbacks: number;
  /** HTTP calls started in the period. */
  attempts: number;
  /** Attempts with a recorded answer (OK, a non-OK code, or an error such as a time-out). */
  answered: number;
  latencyP50Ms: number | null;
  latencyP95Ms: number | null;
  latencyP99Ms: number | null;
  latencyMaxMs: number | null;
  /** Share of answered attempts slower than targetMs, or timed out. */
  overTarget: number | null;
  timeouts: number;
  /** timeouts / answered. */
  timeoutRate: number | null;
  /** Answers that were not OK (non-OK codes, time-outs, network errors, malformed replies). */
  errors: number;
  /** errors / answered. */
  errorRate: number | null;
  /** Transactions whose attempt number reached the storm threshold in the period. */
  retryStorms: number;
  /** Attempts with no recorded answer: followed by another attempt, or none by the end of the log. */
  unanswered: number;
}

export interface ReportRows {
  'bonus-outcomes': BonusOutcomeRow;
  'game-performance': GamePerformanceRow;
  agent: AgentRow;
  'wallet-delivery': WalletDeliveryRow;
  campaigns: CampaignRow;
  'bonus-return': BonusReturnRow;
  'wallet-sla': WalletSlaRow;
}
