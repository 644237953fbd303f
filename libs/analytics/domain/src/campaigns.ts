/**
 * Campaigns: per operator and campaign, what its registrations became. A campaign's own stream
 * (`campaign-{operatorId}-{campaignId}`) says whom it named, whom it registered (with the issueId
 * of each player's bonus call) and whom it refused and why; each registration is a bonus call on
 * the player's bonus stream under platformId `{campaignId}:{playerId}`, whose spins and end say
 * how it was played.
 *
 * What a call belongs to is learned from every event (like the LogIndex): a filter or a time range
 * decides what is counted, not which campaign a spin is of. Counted in the range: the players
 * named by a CampaignStarted in it, the registrations and refusals recorded in it, the spins
 * started and settled in it, the calls ended in it; a call is `played` when its first spin is.
 */
import type { CampaignEvent } from '@reelstream/contracts';
import { compareText } from './bonus-outcomes.js';
import type { LogEvent } from './log-index.js';
import type { CampaignRow } from './report-model.js';
import { entryOf } from './map-entry.js';

/** An event of a campaign stream as the folds see it (not a domain event: only this report reads them). */
export interface CampaignLogEvent {
  readonly position: string;
  readonly streamId: string;
  readonly occurredAt: string;
  readonly occurredAtMs: number;
  readonly operatorId: string;
  readonly campaignId: string;
  readonly event: CampaignEvent;
}

/** The campaign's terms, as far as the filters need them. */
export interface CampaignFacts {
  providerId: number;
  gameIds: readonly number[];
}

interface Tally {
  row: CampaignRow;
  refusedByCode: Map<string, number>;
  facts: CampaignFacts;
  /** Something of it passed the filter: only such campaigns have a row. */
  counted: boolean;
}

interface Call {
  tally: Tally;
  /** A spin of it was counted: `played` counted once. */
  playedCounted: boolean;
  /** A spin of it was seen (counted or not): an end is unplayed only without one. */
  spun: boolean;
}

const keyOf = (operatorId: string, campaignId: string) => `${operatorId}\u0000${campaignId}`;

export class CampaignsFold {
  private readonly campaigns = new Map<string, Tally>();
  /** issueId → its campaign; only campaigns' calls, kept for the replay (as the index keeps bonus calls). */
  private readonly calls = new Map<number, Call>();

  /** The facts of a campaign for the filters; undefined before its CampaignStarted. */
  factsOf(operatorId: string, campaignId: string): CampaignFacts | undefined {
    return this.campaigns.get(keyOf(operatorId, campaignId))?.facts;
  }

  /**
   * A campaign stream's event. `counts(playerId)` says whether the filter counts what it says of a
   * player (undefined for the campaign as a whole); the campaign's terms and calls are learned anyway.
   */
  applyCampaign(entry: CampaignLogEvent, counts: (playerId: string | undefined) => boolean): void {
    const { event, operatorId, campaignId } = entry;
    if (event.type === 'CampaignStarted') {
      const tally = this.tally(operatorId, campaignId, event.data.terms);
      const named = event.data.players.filter((player) => counts(player)).length;
      tally.row.players += named;
      if (named > 0) tally.counted = true;
      return;
    }
    const tally = this.campaigns.get(keyOf(operatorId, campaignId));
    if (!tally) return;
    switch (event.type) {
      case 'CampaignPlayersRegistered':
        for (const { playerId, issueId } of event.data.players) {
          this.learnCall(issueId, tally);
          if (!counts(playerId)) continue;
          tally.row.registered += 1;
          tally.counted = true;
        }
        return;
      case 'CampaignPlayersRefused':
        for (const { playerId, code } of event.data.players) {
          if (!counts(playerId)) continue;
          tally.counted = true;
          tally.row.refused += 1;
          tally.refusedByCode.set(code, (tally.refusedByCode.get(code) ?? 0) + 1);
        }
        return;
      default:
        return;
    }
  }

  /** Learns from every bonus event, counted or not: which campaign a call is of, whether it was spun. */
  learn({ event }: LogEvent): void {
    switch (event.type) {
      case 'BonusCallRegistered': {
        const { platformId, playerId, operatorId, issueId } = event.data;
        const suffix = `:${playerId}`;
        if (!platformId.endsWith(suffix)) return;
        const tally = this.campaigns.get(keyOf(operatorId, platformId.slice(0, -suffix.length)));
        if (tally) this.learnCall(issueId, tally);
        return;
      }
      case 'FreeSpinStarted':
      case 'RegularBonusSpinSettled': {
        const call = this.calls.get(event.data.issueId);
        if (call) call.spun = true;
        return;
      }
      default:
        return;
    }
  }

  /** A bonus event the filter counted. */
  apply({ event }: LogEvent): void {
    switch (event.type) {
      case 'FreeSpinStarted':
        return this.spin(event.data.issueId);
      case 'FreeSpinSettled':
        return this.settled(event.data.issueId, event.data.winMinor);
      case 'RegularBonusSpinSettled':
        this.spin(event.data.issueId);
        return this.settled(event.data.issueId, event.data.winMinor);
      case 'BonusCallCompleted':
        return this.ended(event.data.issueId, 'completed');
      case 'BonusCallExpired':
        return this.ended(event.data.issueId, 'expired');
      case 'BonusCallCanceled':
        return this.ended(event.data.issueId, 'canceled');
      default:
        return;
    }
  }

  rows(): CampaignRow[] {
    return [...this.campaigns.values()]
      .filter(({ counted }) => counted)
      .map(({ row, refusedByCode }) => ({
        ...row,
        refusedByCode: [...refusedByCode.entries()]
          .sort(([a], [b]) => compareText(a, b))
          .map(([code, count]) => `${code}=${count}`)
          .join(' '),
      }))
      .sort((a, b) => compareText(a.operatorId, b.operatorId) || compareText(a.campaignId, b.campaignId));
  }

  private learnCall(issueId: number, tally: Tally): void {
    if (!this.calls.has(issueId)) this.calls.set(issueId, { tally, playedCounted: false, spun: false });
  }

  private spin(issueId: number): void {
    const call = this.calls.get(issueId);
    if (!call) return;
    call.tally.counted = true;
    call.tally.row.spinsPlayed += 1;
    if (!call.playedCounted) {
      call.playedCounted = true;
      call.tally.row.played += 1;
    }
  }

  private settled(issueId: number, winMinor: number): void {
    const call = this.calls.get(issueId);
    if (!call) return;
    call.tally.counted = true;
    if (winMinor > 0) call.tally.row.winningSpins += 1;
    call.tally.row.bonusCostMinor += winMinor;
  }

  private ended(issueId: number, how: 'completed' | 'expired' | 'canceled'): void {
    const call = this.calls.get(issueId);
    if (!call) return;
    call.tally.counted = true;
    call.tally.row[how] += 1;
    if (how !== 'completed' && !call.spun) call.tally.row.endedUnplayed += 1;
  }

  private tally(
    operatorId: string,
    campaignId: string,
    terms: { bonusType: number; currency: string; providerId: number; gameIds: readonly number[] },
  ): Tally {
    const key = keyOf(operatorId, campaignId);
    return entryOf(this.campaigns, key, () => ({
      refusedByCode: new Map(),
      counted: false,
      facts: { providerId: terms.providerId, gameIds: terms.gameIds },
      row: {
        operatorId,
        campaignId,
        bonusType: terms.bonusType,
        currency: terms.currency,
        players: 0,
        registered: 0,
        refused: 0,
        refusedByCode: '',
        played: 0,
        completed: 0,
        expired: 0,
        canceled: 0,
        endedUnplayed: 0,
        spinsPlayed: 0,
        winningSpins: 0,
        bonusCostMinor: 0,
      },
    }));
  }
}
