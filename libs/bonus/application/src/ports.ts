/**
 * What the bonus application needs from the outside, besides the EventStore and MessageBus
 * ports: the catalog, the operators' features, and the read model (queries and the projection's
 * writes). The bonus-ledger service implements them (SQLite read model, catalog file, operators).
 */
import type { BonusCallRecord, BonusCallStatusName } from '@reelstream/contracts';
import type { CatalogGameFacts, OperatorFeatures, OperatorTerms } from '@reelstream/bonus-domain';
import type { Position } from '@reelstream/platform-ports';

export interface CatalogLookup {
  hasProvider(providerId: number): boolean;
  /** The game's facts, its bet levels in `currency` (the registration's). */
  game(gameId: number, currency: string): CatalogGameFacts | undefined;
}

/** What the ledger decides with about an operator (an `OperatorConfig` is one): features, currencies, limits. */
export interface OperatorPolicy extends OperatorTerms {
  readonly features: OperatorFeatures;
  /** Where the operator takes bonus webhooks (docs/adr/0008-bonus-webhooks.md); none are relayed without it. */
  readonly webhookUrl?: string;
}

/** The policy of a configured operator; undefined for an operator the platform does not know. */
export type OperatorPolicyLookup = (operatorId: string) => OperatorPolicy | undefined;

/** An active bonus call due for expiry, as the active-by-expiry index lists it. */
export interface ExpiryTarget {
  operatorId: string;
  playerId: string;
  issueId: number;
  expireAt: string;
}

export interface BonusListFilter {
  operatorId: string;
  playerId?: string;
  platformId?: string;
  status?: BonusCallStatusName;
  /** Only bonus calls with a smaller issueId (the page after it), newest first. */
  beforeIssueId?: number;
  limit: number;
}

/** The query side of the read model. Every lookup is scoped by operator (D18). */
export interface BonusReadModel {
  byIssueId(operatorId: string, issueId: number): Promise<BonusCallRecord | undefined>;
  byPlatformId(operatorId: string, platformId: string): Promise<BonusCallRecord | undefined>;
  /** Newest first (issueIds are time-ordered). */
  list(filter: BonusListFilter): Promise<BonusCallRecord[]>;
  /** Active bonus calls with expireAt ≤ `instant`, earliest first. */
  dueForExpiry(instant: string, limit: number): Promise<ExpiryTarget[]>;
  /** The earliest expireAt of any active bonus call. */
  nextExpiry(): Promise<string | undefined>;
}

/** One event's effect on the read model. */
export interface ProjectionChange {
  /** Global position of the event: the checkpoint moves here with the change. */
  position: Position;
  streamId: string;
  revision: number;
  issueId: number;
  /** The record after the event, from the record before it (undefined before the registration). */
  project(current: BonusCallRecord | undefined): BonusCallRecord;
}

/** The write side of the read model. */
export interface BonusProjectionStore {
  /** Where the projection got to: the position of the last event applied. */
  checkpoint(): Promise<Position | undefined>;
  /**
   * Applies the changes in order and moves the checkpoint to the last one's position, all in one
   * transaction. A change whose revision its stream has already passed is skipped, so a
   * redelivered event is harmless. Resolves with the records written (skipped ones left out).
   */
  apply(changes: readonly ProjectionChange[]): Promise<BonusCallRecord[]>;
}
