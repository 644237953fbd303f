/**
 * Game performance: rounds, turnover, wins, measured RTP with its confidence interval against the
 * catalogue's, per game and segment. Paid spins steered by a Regular Bonus Call are their own
 * segment, out of the measured RTP: their outcome was chosen, not drawn.
 */
import { compareText } from './bonus-outcomes.js';
import type { LogEvent, LogIndex, RoundFacts } from './log-index.js';
import type { OperatorDays } from './operator-day.js';
import type { GamePerformanceRow, Segment } from './report-model.js';
import { addRound, emptyRtpSums, rtpInterval, type RtpSums } from './rtp-interval.js';
import type { SlaPeriod } from './wallet-sla.js';
import { entryOf } from './map-entry.js';

/** `--by`: rows per operator and period (in the operator's zone) as well. */
export interface ReportPeriods {
  days: OperatorDays;
  by: SlaPeriod;
}

/** What the catalogue says of a game: the fold takes it as data, it reads no file. */
export interface CatalogGameFacts {
  name: string;
  model: string;
  rtp: number;
  streamerRtp: number;
}

interface Tally {
  row: GamePerformanceRow;
  hits: number;
  sums: RtpSums;
}

const ratio = (numerator: number, denominator: number) => (denominator === 0 ? null : numerator / denominator);

function modelOf(outcome: unknown): string | undefined {
  if (typeof outcome !== 'object' || outcome === null || Array.isArray(outcome)) return undefined;
  const modelId = (outcome as { modelId?: unknown }).modelId;
  return typeof modelId === 'string' ? modelId : undefined;
}

export class GamePerformanceFold {
  private readonly tallies = new Map<string, Tally>();

  constructor(
    private readonly catalog: ReadonlyMap<number, CatalogGameFacts>,
    private readonly periods?: ReportPeriods,
  ) {}

  apply(entry: LogEvent, index: LogIndex): void {
    const { event } = entry;
    if (event.type !== 'RoundSettled' && event.type !== 'RoundCanceled') return;
    const round = index.rounds.get(event.data.roundId);
    if (!round) return;
    // A round counts in the period of its settlement (or cancel), as recorded in the event.
    if (event.type === 'RoundCanceled') {
      if (round.kind === 'paid') this.tally(round, undefined, event.data.canceledAt).row.canceledRounds += 1;
      return;
    }
    const tally = this.tally(round, modelOf(event.data.outcome), event.data.settledAt);
    const { row } = tally;
    if (round.kind === 'free') {
      row.freeRounds += 1;
      row.freeWinsMinor += event.data.winMinor;
      return;
    }
    row.rounds += 1;
    row.turnoverMinor += round.betMinor;
    row.winsMinor += event.data.winMinor;
    addRound(tally.sums, round.betMinor, event.data.winMinor);
    if (event.data.winMinor > 0) tally.hits += 1;
  }

  rows(): GamePerformanceRow[] {
    return [...this.tallies.values()]
      .map(({ row, hits, sums }) => {
        // A steered spin's outcome was chosen: its wins are shown, no RTP is measured on them.
        const interval = row.segment === 'steered' ? null : rtpInterval(sums);
        return {
          ...row,
          measuredRtp: interval?.measured ?? null,
          rtpLow95: interval?.low ?? null,
          rtpHigh95: interval?.high ?? null,
          insufficientRounds: interval ? (interval.insufficient ? ('yes' as const) : ('no' as const)) : null,
          hitRate: ratio(hits, row.rounds),
        };
      })
      .sort(
        (a, b) =>
          a.providerId - b.providerId ||
          a.gameId - b.gameId ||
          compareText(a.segment, b.segment) ||
          compareText(a.model, b.model) ||
          compareText(a.currency, b.currency) ||
          compareText(a.operatorId ?? '', b.operatorId ?? '') ||
          compareText(a.period ?? '', b.period ?? ''),
      );
  }

  private tally(round: RoundFacts, recordedModel: string | undefined, at: string): Tally {
    const game = this.catalog.get(round.gameId);
    const segment: Segment =
      round.kind === 'paid' && round.bonusId !== 0 ? 'steered' : round.streamer ? 'streamer' : 'standard';
    const model = recordedModel ?? game?.model ?? '';
    const periods = this.periods;
    const period = periods ? periods.days.periodOf(round.operatorId, Date.parse(at), periods.by) : undefined;
    // Without --by, one row across operators (as before); with it, one per operator and period.
    const perPeriod = period === undefined ? '' : `\u0000${round.operatorId}\u0000${period}`;
    const key = `${round.gameId}\u0000${model}\u0000${segment}\u0000${round.currency}${perPeriod}`;
    return entryOf(this.tallies, key, () => ({
      hits: 0,
      sums: emptyRtpSums(),
      row: {
        providerId: round.providerId,
        gameId: round.gameId,
        gameName: game?.name ?? '',
        model,
        segment,
        currency: round.currency,
        ...(periods && period !== undefined
          ? { operatorId: round.operatorId, period, timeZone: periods.days.timeZone(round.operatorId) }
          : {}),
        rounds: 0,
        turnoverMinor: 0,
        winsMinor: 0,
        measuredRtp: null,
        rtpLow95: null,
        rtpHigh95: null,
        insufficientRounds: null,
        theoreticalRtp: !game || segment === 'steered' ? null : segment === 'streamer' ? game.streamerRtp : game.rtp,
        hitRate: null,
        freeRounds: 0,
        freeWinsMinor: 0,
        canceledRounds: 0,
      },
    }));
  }
}
