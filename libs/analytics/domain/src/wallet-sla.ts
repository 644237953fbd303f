/**
 * The operator wallet SLA: per operator, callback command and hour or day in the operator's zone,
 * how fast the wallet answered each call and how often it failed.
 *
 * An attempt (`WalletAttempted`) counts in the period it started; its answer (`WalletSucceeded`,
 * `CancelSucceeded` or `WalletFailed` of the same command on the same stream) counts with it, its
 * latency the answer's `at` less the attempt's `at`. A time-out is an answer too (`WalletFailed`
 * whose error starts with `timeout`, recorded when the limit passed): it counts in the latencies,
 * so they are never flattered by leaving the slowest calls out, and it is over target whatever its
 * latency (a target at or above the call's limit). A `WalletFailed` with attempt 0 (a
 * bet taken after its deadline, never sent) answers no call and is not counted. A transaction is
 * counted in `callbacks` in the period of its request, and as a retry storm in the period of the
 * attempt that reached the threshold (attempts of a transaction's command counted over re-drives).
 */
import { compareText } from './bonus-outcomes.js';
import { LatencyHistogram } from './latency-histogram.js';
import type { LogEvent, LogIndex } from './log-index.js';
import type { OperatorDays } from './operator-day.js';
import { RecentMap } from './recent-map.js';
import type { WalletSlaRow } from './report-model.js';
import { entryOf } from './map-entry.js';

export const SLA_PERIODS = ['hour', 'day'] as const;
export type SlaPeriod = (typeof SLA_PERIODS)[number];

/**
 * The time limits the dispatcher gives each call (docs/operator-guide.md): bet and betwin 3 s (the
 * spec's), win 4 s, cancel 3 s. `--target-ms` sets one target for every command.
 */
const DEFAULT_SLA_TARGETS_MS: Readonly<Record<string, number>> = {
  bet: 3_000,
  betwin: 3_000,
  win: 4_000,
  cancel: 3_000,
};
export const DEFAULT_STORM_ATTEMPTS = 3;

export interface WalletSlaSettings {
  by: SlaPeriod;
  /** One target for every command; default DEFAULT_SLA_TARGETS_MS. */
  targetMs?: number | undefined;
  /** A transaction with this many attempts (or more) of one command is a retry storm. */
  stormAttempts: number;
}

export const DEFAULT_WALLET_SLA: WalletSlaSettings = { by: 'day', stormAttempts: DEFAULT_STORM_ATTEMPTS };

interface Tally {
  row: WalletSlaRow;
  latencies: LatencyHistogram;
  /** Time-outs recorded at or under the target (a target at or above the limit): over target all the same. */
  timeoutsWithinTarget: number;
}

/** A transaction's command on its stream: attempts so far, and the attempt waiting for its answer. */
interface Delivery {
  attempts: number;
  pending: { startMs: number; tally: Tally } | undefined;
}

const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);

export class WalletSlaFold {
  private readonly tallies = new Map<string, Tally>();
  private readonly deliveries: RecentMap<string, Delivery>;

  constructor(
    private readonly days: OperatorDays,
    private readonly settings: WalletSlaSettings,
    horizonMs: number,
  ) {
    this.deliveries = new RecentMap(horizonMs);
  }

  advance(nowMs: number): void {
    this.deliveries.advance(nowMs);
  }

  apply(entry: LogEvent, index: LogIndex): void {
    const { event, streamId } = entry;
    switch (event.type) {
      case 'WalletRequested': {
        const { operatorId, command, requestedAt } = event.data;
        this.tally(operatorId, command, Date.parse(requestedAt)).row.callbacks += 1;
        return;
      }
      case 'CancelRequested':
        this.tally(this.operatorOf(entry, index), 'cancel', Date.parse(event.data.at)).row.callbacks += 1;
        return;
      case 'WalletAttempted': {
        const command = event.data.command ?? this.ownCommand(entry, index);
        const startMs = Date.parse(event.data.at);
        const tally = this.tally(this.operatorOf(entry, index), command, startMs);
        tally.row.attempts += 1;
        const key = `${streamId}\u0000${command}`;
        const delivery = this.deliveries.get(key) ?? { attempts: 0, pending: undefined };
        delivery.attempts += 1;
        if (delivery.attempts === this.settings.stormAttempts) tally.row.retryStorms += 1;
        // An attempt still pending here got no answer: it stays counted in attempts, not in answered.
        delivery.pending = { startMs, tally };
        this.deliveries.set(key, delivery);
        return;
      }
      case 'WalletSucceeded':
        return this.answered(streamId, event.data.command ?? this.ownCommand(entry, index), event.data.at, 'ok');
      case 'CancelSucceeded':
        return this.answered(streamId, 'cancel', event.data.at, 'ok');
      case 'WalletFailed': {
        const { attempt, statusCode, error, at } = event.data;
        if (attempt === 0) return;
        const kind = statusCode === undefined && error?.startsWith('timeout') === true ? 'timeout' : 'error';
        return this.answered(streamId, event.data.command ?? this.ownCommand(entry, index), at, kind);
      }
      default:
        return;
    }
  }

  rows(): WalletSlaRow[] {
    return [...this.tallies.values()]
      .map(({ row, latencies, timeoutsWithinTarget }) => ({
        ...row,
        latencyP50Ms: latencies.percentile(50),
        latencyP95Ms: latencies.percentile(95),
        latencyP99Ms: latencies.percentile(99),
        latencyMaxMs: latencies.max,
        overTarget: ratio(latencies.countAbove(row.targetMs) + timeoutsWithinTarget, row.answered),
        timeoutRate: ratio(row.timeouts, row.answered),
        errorRate: ratio(row.errors, row.answered),
        unanswered: row.attempts - row.answered,
      }))
      .sort(
        (a, b) =>
          compareText(a.operatorId, b.operatorId) ||
          compareText(a.command, b.command) ||
          compareText(a.period, b.period),
      );
  }

  private operatorOf(entry: LogEvent, index: LogIndex): string {
    return index.transactions.get(entry.streamId)?.operatorId ?? entry.operatorId ?? '';
  }

  private ownCommand(entry: LogEvent, index: LogIndex): string {
    return index.transactions.get(entry.streamId)?.command ?? 'unknown';
  }

  private answered(streamId: string, command: string, at: string, kind: 'ok' | 'timeout' | 'error'): void {
    const delivery = this.deliveries.get(`${streamId}\u0000${command}`);
    const pending = delivery?.pending;
    // An answer without its attempt in memory (before the log or the range starts) has no latency to give.
    if (!delivery || !pending) return;
    delivery.pending = undefined;
    const { tally } = pending;
    const { row } = tally;
    const latencyMs = Date.parse(at) - pending.startMs;
    row.answered += 1;
    tally.latencies.add(latencyMs);
    if (kind !== 'ok') row.errors += 1;
    if (kind === 'timeout') {
      row.timeouts += 1;
      if (latencyMs <= row.targetMs) tally.timeoutsWithinTarget += 1;
    }
  }

  private tally(operatorId: string, command: string, atMs: number): Tally {
    const period = this.days.periodOf(operatorId, atMs, this.settings.by);
    const key = `${operatorId}\u0000${command}\u0000${period}`;
    return entryOf(this.tallies, key, () => ({
      latencies: new LatencyHistogram(),
      timeoutsWithinTarget: 0,
      row: {
        operatorId,
        command,
        period,
        timeZone: this.days.timeZone(operatorId),
        targetMs: this.settings.targetMs ?? DEFAULT_SLA_TARGETS_MS[command] ?? 3_000,
        callbacks: 0,
        attempts: 0,
        answered: 0,
        latencyP50Ms: null,
        latencyP95Ms: null,
        latencyP99Ms: null,
        latencyMaxMs: null,
        overTarget: null,
        timeouts: 0,
        timeoutRate: null,
        errors: 0,
        errorRate: null,
        retryStorms: 0,
        unanswered: 0,
      },
    }));
  }
}
