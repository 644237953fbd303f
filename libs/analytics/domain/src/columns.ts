/** The columns of each report, in print order, with what they mean (the guide quotes these). */
import type {
  AgentRow,
  BonusOutcomeRow,
  BonusReturnRow,
  CampaignRow,
  CellKind,
  Column,
  GamePerformanceRow,
  ReportName,
  ReportRows,
  WalletDeliveryRow,
  WalletSlaRow,
} from './report-model.js';

const col = <Row>(key: keyof Row & string, header: string, kind: CellKind, description: string): Column<Row> => ({
  key,
  header,
  kind,
  description,
});

const bonusOutcomeColumns: readonly Column<BonusOutcomeRow>[] = [
  col('operatorId', 'operator', 'text', 'The operator (the spec\u2019s agent).'),
  col('playerId', 'player', 'text', 'The operator\u2019s player id.'),
  col('issueId', 'issueId', 'integer', 'The bonus call\u2019s issueId.'),
  col('platformId', 'platformId', 'text', 'The operator\u2019s own id of the call.'),
  col('bonusType', 'type', 'integer', '1 Free Spin Bonus, 2 regular bonus call.'),
  col('providerId', 'provider', 'integer', 'Provider of the bonus games.'),
  col('gameIds', 'games', 'text', 'Game ids the bonus may be played on, separated by a space.'),
  col('currency', 'currency', 'text', 'ISO 4217 currency of every amount in the row.'),
  col('spinsGranted', 'spinsGranted', 'integer', 'Free spins granted (empty for type 2).'),
  col('spinsUsed', 'spinsUsed', 'integer', 'Free spins started.'),
  col('totalWinMinor', 'totalWin', 'money', 'What the free spins credited, capped by the call amount.'),
  col('winCapMinor', 'winCap', 'money', 'The call amount: the most the bonus may pay.'),
  col('status', 'status', 'text', 'active, completed, expired or canceled.'),
  col('reason', 'reason', 'text', 'spins_used, win_cap_reached, target_reached, expired or canceled.'),
  col('spinsForfeited', 'spinsForfeited', 'integer', 'Spins left unplayed by an expiry or a cancel.'),
  col('registeredAt', 'registeredAt', 'instant', 'When the call was registered (UTC).'),
  col('closedAt', 'closedAt', 'instant', 'When it completed, expired or was canceled (UTC).'),
  col('durationSeconds', 'durationS', 'seconds', 'Registration to close, in seconds.'),
];

const gamePerformanceColumns: readonly Column<GamePerformanceRow>[] = [
  col('providerId', 'provider', 'integer', 'Provider id.'),
  col('gameId', 'game', 'integer', 'Game id.'),
  col('gameName', 'name', 'text', 'Name in the game catalogue.'),
  col('model', 'model', 'text', 'Game model id recorded with each round\u2019s RNG draws.'),
  col(
    'segment',
    'segment',
    'text',
    'standard; streamer (streamer sessions: never in agent totals); steered (paid spins whose outcome a Regular Bonus Call chose: no RTP measured).',
  ),
  col('currency', 'currency', 'text', 'Currency of the amounts.'),
  col('rounds', 'rounds', 'integer', 'Settled paid rounds.'),
  col('turnoverMinor', 'turnover', 'money', 'Sum of the paid rounds\u2019 bets.'),
  col('winsMinor', 'wins', 'money', 'Sum of the paid rounds\u2019 wins.'),
  col('measuredRtp', 'rtp', 'ratio', 'wins / turnover (empty for steered spins).'),
  col('rtpLow95', 'rtpLow95', 'ratio', 'Low end of the 95 % confidence interval of rtp.'),
  col('rtpHigh95', 'rtpHigh95', 'ratio', 'High end of the 95 % confidence interval of rtp.'),
  col('theoreticalRtp', 'rtpTarget', 'ratio', 'The catalogue\u2019s RTP for the segment (rtp or streamerRtp).'),
  col(
    'insufficientRounds',
    'insufficientRounds',
    'text',
    'yes: under 30 rounds, or the interval wider than \u00b11 point: rtp cannot be compared with rtpTarget yet.',
  ),
  col('hitRate', 'hitRate', 'ratio', 'Share of paid rounds that won something.'),
  col('freeRounds', 'freeRounds', 'integer', 'Settled free spins (no bet: not in turnover or RTP).'),
  col('freeWinsMinor', 'freeWins', 'money', 'What the free spins\u2019 reels paid, before the win cap.'),
  col('canceledRounds', 'canceled', 'integer', 'Paid rounds canceled (bet refused or unanswered).'),
];

const agentColumns: readonly Column<AgentRow>[] = [
  col('operatorId', 'operator', 'text', 'The operator (the spec\u2019s agent).'),
  col('day', 'day', 'text', 'Calendar day in the operator\u2019s time zone (YYYY-MM-DD).'),
  col('timeZone', 'timeZone', 'text', 'The operator\u2019s time zone the day is counted in.'),
  col('currency', 'currency', 'text', 'Currency of the amounts.'),
  col('betsMinor', 'bets', 'money', 'Bets the wallet accepted that day, less those canceled.'),
  col('winsMinor', 'wins', 'money', 'Wins the wallet credited that day (free-spin wins included).'),
  col('ggrMinor', 'ggr', 'money', 'Gross gaming revenue: bets \u2212 wins.'),
  col('freeSpinWinsMinor', 'freeSpinWins', 'money', 'Wins of free spins the wallet credited.'),
  col(
    'bonusNotionalMinor',
    'bonusNotional',
    'money',
    'Notional value of the free spins settled that day (base bet each): given, not paid.',
  ),
  col(
    'bonusPaidMinor',
    'bonusPaid',
    'money',
    'Money the bonuses paid: free-spin wins credited that day, plus what the Regular Bonus Calls ended that day delivered.',
  ),
  col('players', 'players', 'integer', 'Distinct players with money moved that day.'),
];

const walletDeliveryColumns: readonly Column<WalletDeliveryRow>[] = [
  col('operatorId', 'operator', 'text', 'The operator whose wallet was called.'),
  col('command', 'command', 'text', 'bet, win, betwin or cancel.'),
  col('callbacks', 'callbacks', 'integer', 'Transactions requested (cancel: cancels requested).'),
  col('attempts', 'attempts', 'integer', 'HTTP calls made.'),
  col('retries', 'retries', 'integer', 'Calls after the first of their transaction.'),
  col('cancels', 'cancels', 'integer', 'Transactions of this command a cancel reverted.'),
  col('deadLetters', 'deadLetters', 'integer', 'Wins parked on the dead-letter topic.'),
  col('refused', 'refused', 'integer', 'Requests the dispatcher refused (no matching source event).'),
  col('succeeded', 'succeeded', 'integer', 'Calls the wallet answered OK.'),
  col('failedFinal', 'failedFinal', 'integer', 'Transactions whose last call failed for good.'),
  col('latencyP50Ms', 'p50ms', 'integer', 'Median call latency, attempt to answer, in ms.'),
  col('latencyP95Ms', 'p95ms', 'integer', '95th percentile latency, ms.'),
  col('latencyP99Ms', 'p99ms', 'integer', '99th percentile latency, ms.'),
  col('latencyMaxMs', 'maxms', 'integer', 'Slowest call, ms.'),
  col('outcomes', 'outcomes', 'text', 'Answers counted by status code; error = time-out, network or malformed reply.'),
];

const campaignColumns: readonly Column<CampaignRow>[] = [
  col('operatorId', 'operator', 'text', 'The operator that started the campaign.'),
  col(
    'campaignId',
    'campaign',
    'text',
    'The operator\u2019s campaignId (its players\u2019 bonus calls have platformId {campaignId}:{playerId}).',
  ),
  col('bonusType', 'type', 'integer', '1 Free Spin Bonus, 2 regular bonus call.'),
  col('currency', 'currency', 'text', 'Currency of the campaign\u2019s terms and of bonusCost.'),
  col('players', 'players', 'integer', 'Players the campaign request named.'),
  col('registered', 'registered', 'integer', 'Players whose bonus call was registered.'),
  col('refused', 'refused', 'integer', 'Players refused (not registered).'),
  col('refusedByCode', 'refusedByCode', 'text', 'Refusals by error code: PLAYER_BLOCKED=2 BONUS_BUSY=1.'),
  col('played', 'played', 'integer', 'Bonus calls with at least one spin played.'),
  col('completed', 'completed', 'integer', 'Bonus calls completed (spins used, win cap or target reached).'),
  col('expired', 'expired', 'integer', 'Bonus calls that expired.'),
  col('canceled', 'canceled', 'integer', 'Bonus calls canceled.'),
  col('endedUnplayed', 'endedUnplayed', 'integer', 'Expired or canceled without a spin played.'),
  col('spinsPlayed', 'spinsPlayed', 'integer', 'Free spins started (type 2: steered spins settled).'),
  col('winningSpins', 'winningSpins', 'integer', 'Spins settled with a win.'),
  col(
    'bonusCostMinor',
    'bonusCost',
    'money',
    'What the spins credited (each spin\u2019s win after the cap): what the campaign paid.',
  ),
];

const bonusReturnColumns: readonly Column<BonusReturnRow>[] = [
  col('operatorId', 'operator', 'text', 'The operator.'),
  col('cohortDay', 'cohortDay', 'text', 'Day the bonuses were registered, in the operator\u2019s time zone.'),
  col('timeZone', 'timeZone', 'text', 'The operator\u2019s time zone.'),
  col('currency', 'currency', 'text', 'Currency of the bonuses and of every amount in the row.'),
  col('windowDays', 'windowDays', 'integer', 'Days after each bonus\u2019s registration counted (--window).'),
  col('bonuses', 'bonuses', 'integer', 'Bonus calls registered that day.'),
  col('players', 'players', 'integer', 'Distinct players they were registered for.'),
  col('bonusCostMinor', 'bonusCost', 'money', 'What those bonuses credited (free-spin and steered wins).'),
  col('turnoverMinor', 'turnover', 'money', 'Paid bets accepted in the players\u2019 windows, less those canceled.'),
  col('winsMinor', 'wins', 'money', 'Wins of paid rounds credited in the windows (bonus wins are in bonusCost).'),
  col('ggrMinor', 'ggr', 'money', 'turnover \u2212 wins.'),
  col('netMinor', 'net', 'money', 'ggr \u2212 bonusCost: what the bonuses brought back, net of what they paid.'),
  col(
    'openWindows',
    'openWindows',
    'integer',
    'Bonuses whose window had not ended when the replayed log (or --to) ended.',
  ),
];

const walletSlaColumns: readonly Column<WalletSlaRow>[] = [
  col('operatorId', 'operator', 'text', 'The operator whose wallet was called.'),
  col('command', 'command', 'text', 'bet, win, betwin or cancel.'),
  col(
    'period',
    'period',
    'text',
    'Day (YYYY-MM-DD) or hour (YYYY-MM-DDTHH:00\u00b1HH:MM) in the operator\u2019s time zone (--by).',
  ),
  col('timeZone', 'timeZone', 'text', 'The operator\u2019s time zone.'),
  col('targetMs', 'targetMs', 'integer', 'Latency target: --target-ms, else bet/betwin/cancel 3000, win 4000.'),
  col('callbacks', 'callbacks', 'integer', 'Transactions requested in the period (cancel: cancels requested).'),
  col('attempts', 'attempts', 'integer', 'HTTP calls started in the period.'),
  col(
    'answered',
    'answered',
    'integer',
    'Calls with a recorded answer: OK, a non-OK code, a time-out or another error.',
  ),
  col('latencyP50Ms', 'p50ms', 'integer', 'Median latency, call to answer, ms (exact below 10 s, within 1 % above).'),
  col('latencyP95Ms', 'p95ms', 'integer', '95th percentile latency, ms.'),
  col('latencyP99Ms', 'p99ms', 'integer', '99th percentile latency, ms.'),
  col('latencyMaxMs', 'maxms', 'integer', 'Slowest answer, ms (exact).'),
  col(
    'overTarget',
    'overTarget',
    'ratio',
    'Share of answered calls slower than targetMs, or timed out (whatever the target).',
  ),
  col('timeouts', 'timeouts', 'integer', 'Calls that timed out.'),
  col('timeoutRate', 'timeoutRate', 'ratio', 'timeouts / answered.'),
  col(
    'errors',
    'errors',
    'integer',
    'Answers that were not OK: non-OK codes, time-outs, network errors, malformed replies.',
  ),
  col('errorRate', 'errorRate', 'ratio', 'errors / answered.'),
  col(
    'retryStorms',
    'retryStorms',
    'integer',
    'Transactions whose attempts of one command reached --storm-attempts (default 3).',
  ),
  col(
    'unanswered',
    'unanswered',
    'integer',
    'Calls with no recorded answer: another attempt followed, or none by the end of the log.',
  ),
];

const periodColumn = <Row extends { period?: string }>(): Column<Row> =>
  col<Row>(
    'period' as keyof Row & string,
    'period',
    'text',
    'Day (YYYY-MM-DD) or hour (YYYY-MM-DDTHH:00\u00b1HH:MM) in the operator\u2019s time zone (--by).',
  );

/**
 * game-performance under `--by`: the operator, its period and zone after the keys (the period is
 * in the operator's zone, so a row is one operator's).
 */
export const gamePerformanceByPeriodColumns: readonly Column<GamePerformanceRow>[] = [
  ...gamePerformanceColumns.slice(0, 6),
  col('operatorId', 'operator', 'text', 'The operator whose rounds the row counts (with --by).'),
  periodColumn<GamePerformanceRow>(),
  col('timeZone', 'timeZone', 'text', 'The operator\u2019s time zone.'),
  ...gamePerformanceColumns.slice(6),
];

/** wallet-delivery under `--by`: the period and zone after operator and command, as in wallet-sla. */
export const walletDeliveryByPeriodColumns: readonly Column<WalletDeliveryRow>[] = [
  ...walletDeliveryColumns.slice(0, 2),
  periodColumn<WalletDeliveryRow>(),
  col('timeZone', 'timeZone', 'text', 'The operator\u2019s time zone.'),
  ...walletDeliveryColumns.slice(2),
];

export const REPORT_COLUMNS: { readonly [Name in ReportName]: readonly Column<ReportRows[Name]>[] } = {
  'bonus-outcomes': bonusOutcomeColumns,
  'game-performance': gamePerformanceColumns,
  agent: agentColumns,
  'wallet-delivery': walletDeliveryColumns,
  campaigns: campaignColumns,
  'bonus-return': bonusReturnColumns,
  'wallet-sla': walletSlaColumns,
};

export const REPORT_TITLES: { readonly [Name in ReportName]: string } = {
  'bonus-outcomes': 'Bonus outcomes',
  'game-performance': 'Game performance',
  agent: 'Agent report',
  'wallet-delivery': 'Wallet delivery',
  campaigns: 'Campaigns',
  'bonus-return': 'Bonus return',
  'wallet-sla': 'Operator wallet SLA',
};
