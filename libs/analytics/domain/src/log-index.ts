/**
 * What the folds need to know about an event beyond its own data: which operator, player, game
 * and provider it is about, and whether its session was a streamer's. Events of a `walletTx`
 * stream name only the transaction after the first one, and a round names its session only in
 * RoundStarted, so the index remembers what the earlier events said.
 */
import type { DomainEvent, StreamCategory, WalletRequest } from '@reelstream/contracts';
import { RecentMap } from './recent-map.js';

/** One event of the log as the folds see it: parsed (upcast) data plus where and when. */
export interface LogEvent {
  readonly position: string;
  readonly streamId: string;
  readonly category: StreamCategory | undefined;
  /** `metadata.occurredAt`, else the store's `recordedAt`. */
  readonly occurredAt: string;
  readonly occurredAtMs: number;
  readonly operatorId: string | undefined;
  readonly event: DomainEvent;
}

/** Who and what an event is about, as far as the log tells. */
export interface Subject {
  operatorId: string | undefined;
  playerId: string | undefined;
  gameId: number | undefined;
  /** A bonus call names its games in a list: it is about each of them. */
  gameIds?: readonly number[] | undefined;
  providerId: number | undefined;
}

export interface SessionFacts {
  operatorId: string;
  playerId: string;
  isStreamer: boolean;
  demo: boolean;
}

export interface RoundFacts {
  operatorId: string;
  playerId: string;
  gameId: number;
  providerId: number;
  sessionToken: string;
  kind: 'paid' | 'free';
  currency: string;
  betMinor: number;
  bonusId: number;
  streamer: boolean;
  /** `RoundStarted.startedAt`. */
  startedAt: string;
}

export interface BonusFacts {
  operatorId: string;
  playerId: string;
  providerId: number;
  currency: string;
  bonusType: number;
  /** The games the call may be played on. */
  gameIds: readonly number[];
  /** Completed, expired or canceled: the log holds its end. */
  ended: boolean;
  /** A Regular Bonus Call's steered wins so far (top-ups included), streamer rounds left out (spec §4.3). */
  steeredWinMinor: number;
}

/** How long (log time) a session, round or transaction is remembered after it was last mentioned, by default. */
export const DEFAULT_MEMORY_HORIZON_MS = 48 * 3_600_000;

export class LogIndex {
  /** Sessions, rounds and transactions are forgotten once the log has not named them for a horizon (RecentMap). */
  readonly sessions: RecentMap<string, SessionFacts>;
  readonly rounds: RecentMap<number, RoundFacts>;
  readonly transactions: RecentMap<string, WalletRequest>;
  /** Bonus calls live for days and are few: kept for the whole replay. */
  readonly bonuses = new Map<number, BonusFacts>();
  /** Every operator the log names. */
  readonly operators = new Set<string>();

  constructor(horizonMs = DEFAULT_MEMORY_HORIZON_MS) {
    this.sessions = new RecentMap(horizonMs);
    this.rounds = new RecentMap(horizonMs);
    this.transactions = new RecentMap(horizonMs);
  }

  /** Moves the log clock on (see RecentMap). */
  advance(nowMs: number): void {
    this.sessions.advance(nowMs);
    this.rounds.advance(nowMs);
    this.transactions.advance(nowMs);
  }

  /** Sessions, rounds and transactions forgotten so far. */
  get forgotten(): number {
    return this.sessions.forgotten + this.rounds.forgotten + this.transactions.forgotten;
  }

  /** Remembers what `entry` says; call for every event, also the ones a filter leaves out. */
  learn(entry: LogEvent): void {
    const { event } = entry;
    if (entry.operatorId !== undefined) this.operators.add(entry.operatorId);
    switch (event.type) {
      case 'GameSessionStarted': {
        const { token, operatorId, playerId, isStreamer, demo } = event.data;
        this.sessions.set(token, { operatorId, playerId, isStreamer, demo: demo ?? false });
        return;
      }
      case 'RoundStarted': {
        const data = event.data;
        this.rounds.set(data.roundId, {
          operatorId: data.operatorId,
          playerId: data.playerId,
          gameId: data.gameId,
          providerId: data.providerId,
          sessionToken: data.sessionToken,
          kind: data.kind,
          currency: data.currency,
          betMinor: data.betMinor,
          bonusId: data.bonusId,
          streamer: data.rtpProfile === 'streamer' || this.sessions.get(data.sessionToken)?.isStreamer === true,
          startedAt: data.startedAt,
        });
        return;
      }
      case 'WalletRequested':
        this.transactions.set(entry.streamId, event.data.request);
        return;
      case 'BonusCallRegistered': {
        const { issueId, operatorId, playerId, providerId, currency, bonusType, gameIds } = event.data;
        this.bonuses.set(issueId, {
          operatorId,
          playerId,
          providerId,
          currency,
          bonusType,
          gameIds,
          ended: false,
          steeredWinMinor: 0,
        });
        return;
      }
      case 'RegularBonusSpinSettled': {
        const bonus = this.bonuses.get(event.data.issueId);
        if (bonus && !this.isStreamerRound(event.data.roundId)) bonus.steeredWinMinor += event.data.winMinor;
        return;
      }
      case 'BonusCallCompleted':
      case 'BonusCallExpired':
      case 'BonusCallCanceled': {
        const bonus = this.bonuses.get(event.data.issueId);
        if (bonus) bonus.ended = true;
        return;
      }
      default:
        return;
    }
  }

  /** Whether the round was played in a streamer session (unknown rounds: no). */
  isStreamerRound(roundId: number): boolean {
    return this.rounds.get(roundId)?.streamer === true;
  }

  subjectOf(entry: LogEvent): Subject {
    const { event } = entry;
    const none: Subject = {
      operatorId: entry.operatorId,
      playerId: undefined,
      gameId: undefined,
      providerId: undefined,
    };
    switch (event.type) {
      case 'GameSessionStarted':
      case 'RoundStarted':
        return { ...none, ...pick(event.data) };
      case 'GameSessionEnded':
        return { ...none, ...pick(this.sessions.get(event.data.token) ?? {}) };
      case 'RoundSettled':
      case 'RoundCanceled':
        return { ...none, ...pick(this.rounds.get(event.data.roundId) ?? {}) };
      case 'BonusCallRegistered':
        return { ...none, ...pick(event.data), gameId: undefined, gameIds: event.data.gameIds };
      case 'FreeSpinStarted':
      case 'FreeSpinSettled':
      case 'RegularBonusSpinSettled':
        // A spin is about the game it was played on, not every game of its call.
        return {
          ...none,
          ...pick(this.bonuses.get(event.data.issueId) ?? {}),
          gameId: event.data.gameId,
          gameIds: undefined,
        };
      case 'BonusCallCompleted':
      case 'BonusCallExpired':
      case 'BonusCallCanceled':
        return { ...none, ...pick(this.bonuses.get(event.data.issueId) ?? {}) };
      case 'BonusRequestAccepted':
        return { ...none, playerId: event.data.playerId };
      case 'WinDeadLettered':
      case 'WinRefused':
      case 'StakeRefused':
        return { ...none, ...pick(event.data.request ?? this.transactions.get(entry.streamId) ?? {}) };
      default:
        return { ...none, ...pick(this.transactions.get(entry.streamId) ?? {}) };
    }
  }
}

function pick(from: {
  operatorId?: string;
  playerId?: string;
  gameId?: number;
  gameIds?: readonly number[];
  providerId?: number;
}): Partial<Subject> {
  const subject: Partial<Subject> = {};
  if (from.gameIds !== undefined) subject.gameIds = from.gameIds;
  if (from.operatorId !== undefined) subject.operatorId = from.operatorId;
  if (from.playerId !== undefined) subject.playerId = from.playerId;
  if (from.gameId !== undefined) subject.gameId = from.gameId;
  if (from.providerId !== undefined) subject.providerId = from.providerId;
  return subject;
}
