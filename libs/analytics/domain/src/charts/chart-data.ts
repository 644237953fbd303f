/**
 * What the HTML report's charts plot, folded from the same events as the reports:
 * - RTP per game: the paid rounds' measured RTP with its 95 % confidence interval (normal
 *   approximation from the rounds' own spread of win/bet), against the catalogue's target;
 * - callback latency: the time from each wallet attempt to its answer, per operator and command.
 * Daily GGR comes from the agent report's rows. Streamer rounds are kept out of the RTP points
 * (they play another profile, spec §2.3), as the game-performance report keeps them apart.
 */
import { DEFAULT_MEMORY_HORIZON_MS, type LogEvent } from '../log-index.js';
import { RecentMap } from '../recent-map.js';
import { addRound, emptyRtpSums, rtpInterval, type RtpSums } from '../rtp-interval.js';

export interface RtpPoint {
  readonly gameId: number;
  readonly currency: string;
  readonly rounds: number;
  /** wins / turnover. */
  readonly measuredRtp: number;
  readonly lowRtp: number;
  readonly highRtp: number;
  /** Too few rounds to compare with the target (rtp-interval.ts). */
  readonly insufficient: boolean;
  /** The catalogue's RTP; null when it does not list the game. */
  readonly targetRtp: number | null;
}

export interface LatencySeries {
  readonly operatorId: string;
  readonly command: string;
  /** Answered attempts, ascending milliseconds. */
  readonly latenciesMs: readonly number[];
}

interface OpenAttempt {
  readonly operatorId: string;
  readonly command: string;
  readonly atMs: number;
}

export class ChartFold {
  private readonly stakes = new Map<number, { gameId: number; currency: string; betMinor: number }>();
  private readonly samples = new Map<string, RtpSums>();
  /** Remembered as the log index remembers transactions (RecentMap, 48 hours of log time). */
  private readonly requests = new RecentMap<string, { operatorId: string; command: string }>(DEFAULT_MEMORY_HORIZON_MS);
  private seen = 0;
  private readonly open = new Map<string, OpenAttempt>();
  private readonly latencies = new Map<string, number[]>();

  constructor(private readonly targetRtpOf: (gameId: number) => number | null) {}

  apply(entry: LogEvent): void {
    if (this.seen++ % 1024 === 0) this.requests.advance(entry.occurredAtMs);
    const { event } = entry;
    switch (event.type) {
      case 'RoundStarted':
        // Random draws only: a spin steered by a Regular Bonus Call (bonusId set) had its outcome chosen.
        if (event.data.kind === 'paid' && event.data.rtpProfile === 'standard' && event.data.bonusId === 0)
          this.stakes.set(event.data.roundId, event.data);
        return;
      case 'RoundSettled': {
        const stake = this.stakes.get(event.data.roundId);
        if (!stake) return;
        this.stakes.delete(event.data.roundId);
        const key = `${stake.gameId}|${stake.currency}`;
        const sample = this.samples.get(key) ?? emptyRtpSums();
        addRound(sample, stake.betMinor, event.data.winMinor);
        this.samples.set(key, sample);
        return;
      }
      case 'WalletRequested':
        this.requests.set(entry.streamId, { operatorId: event.data.operatorId, command: event.data.command });
        return;
      case 'WalletAttempted': {
        const request = this.requests.get(entry.streamId);
        if (request)
          this.open.set(entry.streamId, {
            operatorId: request.operatorId,
            command: event.data.command ?? request.command,
            atMs: Date.parse(event.data.at),
          });
        return;
      }
      case 'WalletSucceeded':
      case 'WalletFailed': {
        const attempt = this.open.get(entry.streamId);
        if (!attempt) return;
        this.open.delete(entry.streamId);
        const key = `${attempt.operatorId}|${attempt.command}`;
        const list = this.latencies.get(key) ?? [];
        list.push(Math.max(0, Date.parse(event.data.at) - attempt.atMs));
        this.latencies.set(key, list);
        return;
      }
      default:
        return;
    }
  }

  rtpPoints(): RtpPoint[] {
    return [...this.samples.entries()]
      .flatMap(([key, sample]) => {
        const [game = '0', currency = ''] = key.split('|');
        const gameId = Number(game);
        const interval = rtpInterval(sample);
        if (!interval) return [];
        return [
          {
            gameId,
            currency,
            rounds: sample.rounds,
            measuredRtp: interval.measured,
            lowRtp: interval.low,
            highRtp: interval.high,
            insufficient: interval.insufficient,
            targetRtp: this.targetRtpOf(gameId),
          },
        ];
      })
      .sort((a, b) => a.gameId - b.gameId || a.currency.localeCompare(b.currency));
  }

  latencySeries(): LatencySeries[] {
    return [...this.latencies.entries()]
      .map(([key, list]) => {
        const [operatorId = '', command = ''] = key.split('|');
        return { operatorId, command, latenciesMs: [...list].sort((a, b) => a - b) };
      })
      .sort((a, b) => a.operatorId.localeCompare(b.operatorId) || a.command.localeCompare(b.command));
  }
}
