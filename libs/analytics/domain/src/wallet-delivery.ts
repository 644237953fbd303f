/**
 * Wallet delivery: how the operator's wallet was called and answered, per operator and command;
 * with `--by`, per hour or day in the operator's zone too, each count in the period of the instant
 * its event records (a request at its requestedAt, a call at its start, an answer and its latency
 * at the answer), so the periods add up to the report without `--by`.
 */
import { compareText } from './bonus-outcomes.js';
import type { ReportPeriods } from './game-performance.js';
import type { LogEvent, LogIndex } from './log-index.js';
import type { WalletDeliveryRow } from './report-model.js';
import { RecentMap } from './recent-map.js';
import { entryOf } from './map-entry.js';

interface Tally {
  row: WalletDeliveryRow;
  latencies: number[];
  outcomes: Map<string, number>;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[rank - 1] ?? null;
}

export class WalletDeliveryFold {
  private readonly tallies = new Map<string, Tally>();
  /** When the attempt in flight of a stream's command started, for its latency. */
  private readonly inFlight: RecentMap<string, number>;

  constructor(
    horizonMs: number,
    private readonly periods?: ReportPeriods,
  ) {
    this.inFlight = new RecentMap(horizonMs);
  }

  advance(nowMs: number): void {
    this.inFlight.advance(nowMs);
  }

  apply(entry: LogEvent, index: LogIndex): void {
    const { event, streamId } = entry;
    const request = index.transactions.get(streamId);
    const operatorId = request?.operatorId ?? entry.operatorId ?? '';
    // No closure here: this runs for every wallet event, and a closure per call shows in profiles.
    const ownCommand = request?.command ?? 'unknown';
    switch (event.type) {
      case 'WalletRequested':
        this.tally(operatorId, event.data.command, event.data.requestedAt).row.callbacks += 1;
        return;
      case 'WalletAttempted': {
        const command = event.data.command ?? ownCommand;
        const { row } = this.tally(operatorId, command, event.data.at);
        row.attempts += 1;
        if (event.data.attempt > 1) row.retries += 1;
        this.inFlight.set(`${streamId}\u0000${command}`, Date.parse(event.data.at));
        return;
      }
      case 'WalletSucceeded':
        return this.answered(operatorId, streamId, event.data.command ?? ownCommand, 'OK', event.data.at, false);
      case 'CancelSucceeded':
        return this.answered(operatorId, streamId, 'cancel', 'OK', event.data.at, false);
      case 'WalletFailed': {
        const { statusCode, final, at } = event.data;
        return this.answered(operatorId, streamId, event.data.command ?? ownCommand, statusCode ?? 'error', at, final);
      }
      case 'CancelRequested': {
        this.tally(operatorId, 'cancel', event.data.at).row.callbacks += 1;
        if (request) this.tally(operatorId, request.command, event.data.at).row.cancels += 1;
        return;
      }
      case 'WinDeadLettered':
        this.tally(event.data.request?.operatorId ?? operatorId, 'win', entry.occurredAt).row.deadLetters += 1;
        return;
      case 'WinRefused':
        this.tally(event.data.request.operatorId, 'win', entry.occurredAt).row.refused += 1;
        return;
      case 'StakeRefused':
        this.tally(event.data.request.operatorId, event.data.request.command, entry.occurredAt).row.refused += 1;
        return;
      default:
        return;
    }
  }

  rows(): WalletDeliveryRow[] {
    return [...this.tallies.values()]
      .map(({ row, latencies, outcomes }) => {
        const sorted = [...latencies].sort((a, b) => a - b);
        return {
          ...row,
          latencyP50Ms: percentile(sorted, 50),
          latencyP95Ms: percentile(sorted, 95),
          latencyP99Ms: percentile(sorted, 99),
          latencyMaxMs: sorted.length === 0 ? null : (sorted[sorted.length - 1] ?? null),
          outcomes: [...outcomes.entries()]
            .sort(([a], [b]) => compareText(a, b))
            .map(([code, count]) => `${code}=${count}`)
            .join(' '),
        };
      })
      .sort(
        (a, b) =>
          compareText(a.operatorId, b.operatorId) ||
          compareText(a.command, b.command) ||
          compareText(a.period ?? '', b.period ?? ''),
      );
  }

  private answered(
    operatorId: string,
    streamId: string,
    command: string,
    outcome: string,
    at: string,
    final: boolean,
  ): void {
    const tally = this.tally(operatorId, command, at);
    if (outcome === 'OK') tally.row.succeeded += 1;
    if (final) tally.row.failedFinal += 1;
    tally.outcomes.set(outcome, (tally.outcomes.get(outcome) ?? 0) + 1);
    const key = `${streamId}\u0000${command}`;
    const started = this.inFlight.get(key);
    if (started !== undefined) {
      tally.latencies.push(Math.max(0, Date.parse(at) - started));
      this.inFlight.delete(key);
    }
  }

  private tally(operatorId: string, command: string, at: string): Tally {
    const periods = this.periods;
    const period = periods ? periods.days.periodOf(operatorId, Date.parse(at), periods.by) : undefined;
    const key = period === undefined ? `${operatorId}\u0000${command}` : `${operatorId}\u0000${command}\u0000${period}`;
    return entryOf(this.tallies, key, () => ({
      latencies: [],
      outcomes: new Map(),
      row: {
        operatorId,
        command,
        ...(periods && period !== undefined ? { period, timeZone: periods.days.timeZone(operatorId) } : {}),
        callbacks: 0,
        attempts: 0,
        retries: 0,
        cancels: 0,
        deadLetters: 0,
        refused: 0,
        succeeded: 0,
        failedFinal: 0,
        latencyP50Ms: null,
        latencyP95Ms: null,
        latencyP99Ms: null,
        latencyMaxMs: null,
        outcomes: '',
      },
    }));
  }
}
