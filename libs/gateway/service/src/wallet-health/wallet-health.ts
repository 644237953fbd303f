/**
 * `GET /v1/wallet/health` computed from the event log (docs/adr/0022-operator-console-and-wallet-health.md):
 * the wallet-transaction streams' events of the last day (and a margin before it, so a callback
 * sent just before the window meets its answer), read backwards from the log's head, the calling
 * operator's only. Each `WalletSucceeded`, `CancelSucceeded` or `WalletFailed` of a sent callback
 * is one callback of its command, timed from the `WalletAttempted` before it in its stream; a bet
 * never sent (attempt 0) is no callback.
 */
import {
  CALLBACK_COMMANDS,
  parseStoredEvent,
  streamPrefix,
  StreamCategories,
  WALLET_HEALTH_WINDOWS,
  type CommandHealth,
  type WalletHealth,
  type WalletHealthWindow,
  type WalletTxEvent,
} from '@reelstream/contracts';
import type { EventStore, RecordedEvent } from '@reelstream/platform-ports';

type Command = (typeof CALLBACK_COMMANDS)[number];

/** One callback: its command, when its outcome was recorded, whether it was OK, how long it took, why it failed. */
interface CallbackOutcome {
  command: Command;
  at: number;
  ok: boolean;
  latencyMs: number | undefined;
  reason: string | undefined;
}

const SCAN_PAGE = 500;
/** Callbacks answered in the window may have been sent before it: a time-out is seconds, a slow operator minutes. */
const SEND_MARGIN_MS = 10 * 60_000;

export class WalletHealthReader {
  constructor(private readonly store: EventStore) {}

  async health(operatorId: string, now: Date): Promise<WalletHealth> {
    const widest = Math.max(...WALLET_HEALTH_WINDOWS.map((window) => window.seconds)) * 1000;
    const outcomes = await this.outcomes(operatorId, now.getTime() - widest, now.getTime());
    return {
      operatorId,
      at: now.toISOString(),
      windows: WALLET_HEALTH_WINDOWS.map((window) => summarise(outcomes, window, now.getTime())),
    };
  }

  /** The operator's callbacks whose outcome was recorded in [since, until]. */
  async outcomes(operatorId: string, since: number, until: number): Promise<CallbackOutcome[]> {
    const byStream = new Map<string, RecordedEvent[]>();
    let from: string | undefined;
    scan: for (;;) {
      const page = await this.store.readAll({
        direction: 'backwards',
        maxCount: SCAN_PAGE,
        filter: { streamPrefixes: [streamPrefix(StreamCategories.walletTx)] },
        ...(from === undefined ? {} : { fromPosition: from }),
      });
      for (const recorded of page) {
        from = recorded.position;
        if (Date.parse(recorded.recordedAt) < since - SEND_MARGIN_MS) break scan;
        if (recorded.metadata.operatorId !== operatorId) continue;
        const events = byStream.get(recorded.streamId) ?? [];
        events.push(recorded);
        byStream.set(recorded.streamId, events);
      }
      if (page.length < SCAN_PAGE) break;
    }
    const outcomes: CallbackOutcome[] = [];
    for (const [streamId, backwards] of byStream) {
      const events = backwards.reverse().map((recorded) => parseStoredEvent(recorded) as WalletTxEvent);
      const own =
        events.find((event) => event.type === 'WalletRequested')?.data.command ?? (await this.command(streamId));
      outcomes.push(...streamOutcomes(events, own).filter((outcome) => outcome.at >= since && outcome.at <= until));
    }
    return outcomes;
  }

  /** The command of a transaction requested before the scanned events: its stream's first event. */
  private async command(streamId: string): Promise<Command | undefined> {
    const [first] = await this.store.readStream(streamId, { maxCount: 1 });
    if (first === undefined) return undefined;
    const event = parseStoredEvent(first) as WalletTxEvent;
    return event.type === 'WalletRequested' ? event.data.command : undefined;
  }
}

/** The callbacks of one stream's events in order; `own` is the command of the stream's transaction. */
function streamOutcomes(events: readonly WalletTxEvent[], own: Command | undefined): CallbackOutcome[] {
  const sentAt = new Map<Command, number>();
  const outcomes: CallbackOutcome[] = [];
  for (const event of events) {
    if (event.type === 'WalletAttempted') {
      const command = event.data.command ?? own;
      if (command !== undefined) sentAt.set(command, Date.parse(event.data.at));
      continue;
    }
    if (event.type !== 'WalletSucceeded' && event.type !== 'WalletFailed' && event.type !== 'CancelSucceeded') continue;
    // A cancel's OK is recorded as CancelSucceeded, its failures as WalletFailed of command `cancel`.
    const command = event.type === 'CancelSucceeded' ? 'cancel' : (event.data.command ?? own);
    if (command === undefined) continue;
    if (event.type === 'WalletFailed' && event.data.attempt === 0) continue;
    const at = Date.parse(event.data.at);
    const sent = sentAt.get(command);
    sentAt.delete(command);
    outcomes.push({
      command,
      at,
      ok: event.type !== 'WalletFailed',
      latencyMs: sent === undefined ? undefined : Math.max(0, at - sent),
      reason: event.type === 'WalletFailed' ? failureReason(event.data) : undefined,
    });
  }
  return outcomes;
}

function failureReason(data: { statusCode?: string | undefined; error?: string | undefined }): string {
  if (data.statusCode !== undefined) return data.statusCode;
  return /time-?out|timed out/i.test(data.error ?? '') ? 'TIMEOUT' : 'NO_VALID_ANSWER';
}

function summarise(
  outcomes: readonly CallbackOutcome[],
  window: (typeof WALLET_HEALTH_WINDOWS)[number],
  now: number,
): WalletHealthWindow {
  const from = now - window.seconds * 1000;
  const inWindow = outcomes.filter((outcome) => outcome.at >= from && outcome.at <= now);
  const bucketMs = window.bucketSeconds * 1000;
  const bucketCount = window.seconds / window.bucketSeconds;
  return {
    window: window.window,
    from: new Date(from).toISOString(),
    to: new Date(now).toISOString(),
    bucketSeconds: window.bucketSeconds,
    commands: CALLBACK_COMMANDS.map((command) =>
      commandHealth(
        command,
        inWindow.filter((outcome) => outcome.command === command),
      ),
    ),
    buckets: Array.from({ length: bucketCount }, (_, index) => {
      const start = from + index * bucketMs;
      const end = index === bucketCount - 1 ? now + 1 : start + bucketMs;
      const inBucket = inWindow.filter((outcome) => outcome.at >= start && outcome.at < end);
      return {
        from: new Date(start).toISOString(),
        callbacks: inBucket.length,
        succeeded: inBucket.filter((outcome) => outcome.ok).length,
        latencyMsP95: percentile(latencies(inBucket), 0.95) ?? null,
      };
    }),
  };
}

function commandHealth(command: Command, outcomes: readonly CallbackOutcome[]): CommandHealth {
  const succeeded = outcomes.filter((outcome) => outcome.ok).length;
  const timed = latencies(outcomes);
  const reasons = new Map<string, number>();
  for (const outcome of outcomes)
    if (outcome.reason !== undefined) reasons.set(outcome.reason, (reasons.get(outcome.reason) ?? 0) + 1);
  return {
    command,
    callbacks: outcomes.length,
    succeeded,
    failed: outcomes.length - succeeded,
    successRate: outcomes.length === 0 ? null : Math.round((succeeded / outcomes.length) * 10_000) / 10_000,
    latencyMs:
      timed.length === 0
        ? null
        : {
            average: Math.round(timed.reduce((sum, ms) => sum + ms, 0) / timed.length),
            p50: percentile(timed, 0.5) ?? 0,
            p95: percentile(timed, 0.95) ?? 0,
            max: timed[timed.length - 1] ?? 0,
          },
    failures: [...reasons]
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count || a.reason.localeCompare(b.reason)),
  };
}

/** The sorted latencies of the outcomes that have one. */
function latencies(outcomes: readonly CallbackOutcome[]): number[] {
  return outcomes
    .flatMap((outcome) => (outcome.latencyMs === undefined ? [] : [outcome.latencyMs]))
    .sort((a, b) => a - b);
}

/** Nearest-rank percentile of sorted values; undefined for none. */
function percentile(sorted: readonly number[], fraction: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}
