/**
 * Reading events written by any version of the code (docs/architecture.md "Data": "old versions are upcast on
 * read"). Each event type has a current schema version; an upcaster turns version n into n + 1;
 * `parseEvent` applies them in turn and validates the result with the current schema.
 */
import type * as z from 'zod';
import { bonusCallRegisteredDataV0, BonusEventTypes, type PlayerBonusEvent, type BonusRequestEvent } from './bonus.js';
import * as bonus from './bonus.js';
import { eventMetadata, type EventContext, type EventMetadata } from './metadata.js';
import { describeIssues } from '../shared/issues.js';
import { ReelstreamError } from '@reelstream/errors';
import * as round from './round.js';
import type { RoundEvent } from './round.js';
import * as session from './session.js';
import type { SessionEvent } from './session.js';
import * as wallet from './wallet.js';
import type { WalletTxEvent } from './wallet.js';
import * as webhookLetter from './webhook-letter.js';
import type { WebhookLetterEvent } from './webhook-letter.js';

export type DomainEvent =
  PlayerBonusEvent | BonusRequestEvent | SessionEvent | RoundEvent | WalletTxEvent | WebhookLetterEvent;
export type EventType = DomainEvent['type'];

export const EventTypes = {
  ...BonusEventTypes,
  ...session.SessionEventTypes,
  ...round.RoundEventTypes,
  ...wallet.WalletEventTypes,
  ...webhookLetter.WebhookLetterEventTypes,
} as const satisfies { [Type in EventType]: Type };

interface EventDefinition {
  /** The version writers use now. */
  readonly version: number;
  readonly data: z.ZodType;
  /** `upcasters[n]` turns data of version n into data of version n + 1. */
  readonly upcasters?: Readonly<Record<number, (data: unknown) => unknown>>;
}

const v1 = (data: z.ZodType): EventDefinition => ({ version: 1, data });

export const EventRegistry: { readonly [Type in EventType]: EventDefinition } = {
  BonusCallRegistered: {
    version: 1,
    data: bonus.bonusCallRegisteredData,
    upcasters: {
      // v0 → v1: one gameId became the list gameIds (D4).
      0: (data) => {
        const { gameId, ...rest } = bonusCallRegisteredDataV0.parse(data);
        return { ...rest, gameIds: [gameId] };
      },
    },
  },
  FreeSpinStarted: v1(bonus.freeSpinStartedData),
  FreeSpinSettled: v1(bonus.freeSpinSettledData),
  RegularBonusSpinSettled: v1(bonus.regularBonusSpinSettledData),
  BonusCallCompleted: v1(bonus.bonusCallCompletedData),
  BonusCallExpired: v1(bonus.bonusCallExpiredData),
  BonusCallCanceled: v1(bonus.bonusCallCanceledData),
  BonusRequestAccepted: v1(bonus.bonusRequestAcceptedData),
  GameSessionStarted: v1(session.gameSessionStartedData),
  GameSessionEnded: v1(session.gameSessionEndedData),
  RoundStarted: v1(round.roundStartedData),
  RoundSettled: v1(round.roundSettledData),
  RoundCanceled: v1(round.roundCanceledData),
  WalletRequested: v1(wallet.walletRequestedData),
  WalletAttempted: v1(wallet.walletAttemptedData),
  WalletSucceeded: v1(wallet.walletSucceededData),
  WalletFailed: v1(wallet.walletFailedData),
  CancelRequested: v1(wallet.cancelRequestedData),
  CancelSucceeded: v1(wallet.cancelSucceededData),
  WinDeadLettered: v1(wallet.winDeadLetteredData),
  WinRefused: v1(wallet.winRefusedData),
  StakeRefused: v1(wallet.stakeRefusedData),
  WebhookDeadLettered: v1(webhookLetter.webhookDeadLetteredData),
  WebhookRedriveRequested: v1(webhookLetter.webhookRedriveRequestedData),
};

export function isEventType(type: string): type is EventType {
  return Object.hasOwn(EventRegistry, type);
}

export function currentSchemaVersion(type: EventType): number {
  return EventRegistry[type].version;
}

export class UnknownEventTypeError extends ReelstreamError {
  override readonly name = 'UnknownEventTypeError';
  constructor(readonly type: string) {
    super('EVENT_NOT_READABLE', `unknown event type "${type}"`, { retriable: false });
  }
}

export class UnsupportedSchemaVersionError extends ReelstreamError {
  override readonly name = 'UnsupportedSchemaVersionError';
  constructor(
    readonly type: string,
    readonly schemaVersion: number,
    readonly current: number,
  ) {
    super(
      'EVENT_NOT_READABLE',
      schemaVersion > current
        ? `event ${type} has schema version ${schemaVersion}, newer than this code's ${current}: deploy the newer reader first`
        : `event ${type} has schema version ${schemaVersion} and no upcaster to version ${schemaVersion + 1}`,
      { retriable: false },
    );
  }
}

export class InvalidEventDataError extends ReelstreamError {
  override readonly name = 'InvalidEventDataError';
  constructor(
    readonly type: string,
    readonly schemaVersion: number,
    readonly issues: readonly z.core.$ZodIssue[],
  ) {
    super(
      'EVENT_NOT_READABLE',
      `event ${type} (schema version ${schemaVersion}) has invalid data: ${describeIssues(issues)}`,
      { retriable: false },
    );
  }
}

/**
 * The event as the current code knows it: `data` of version `schemaVersion` upcast step by step
 * to the current version, then validated. Throws UnknownEventTypeError,
 * UnsupportedSchemaVersionError or InvalidEventDataError: a stored event that cannot be read is
 * a fault to fix, never something to skip silently.
 */
export function parseEvent(type: string, data: unknown, schemaVersion: number): DomainEvent {
  if (!isEventType(type)) throw new UnknownEventTypeError(type);
  const definition = EventRegistry[type];
  if (!Number.isInteger(schemaVersion) || schemaVersion < 0 || schemaVersion > definition.version) {
    throw new UnsupportedSchemaVersionError(type, schemaVersion, definition.version);
  }
  let current = data;
  for (let version = schemaVersion; version < definition.version; version++) {
    const upcast = definition.upcasters?.[version];
    if (!upcast) throw new UnsupportedSchemaVersionError(type, version, definition.version);
    try {
      current = upcast(current);
    } catch (error) {
      if (error instanceof Error && 'issues' in error)
        throw new InvalidEventDataError(type, version, (error as z.ZodError).issues);
      throw error;
    }
  }
  const result = definition.data.safeParse(current);
  if (!result.success) throw new InvalidEventDataError(type, definition.version, result.error.issues);
  return { type, data: result.data } as DomainEvent;
}

/**
 * A stored event (`{type, data, metadata}` as the EventStore port returns it). A missing
 * `metadata.schemaVersion` reads as 1, the first version writers stamp; version 0 data
 * (BonusCallRegistered with one gameId) carries `schemaVersion: 0` explicitly.
 */
export function parseStoredEvent(event: {
  type: string;
  data: unknown;
  metadata?: { schemaVersion?: unknown };
}): DomainEvent {
  const version = event.metadata?.schemaVersion;
  return parseEvent(event.type, event.data, typeof version === 'number' ? version : 1);
}

/**
 * The `{type, data, metadata}` to append: data validated against the current schema (a bad
 * event never reaches the store) and `schemaVersion` stamped.
 */
export function eventToAppend<Event extends DomainEvent>(
  event: Event,
  context: EventContext,
): { type: Event['type']; data: Event['data']; metadata: EventMetadata } {
  if (!isEventType(event.type)) throw new UnknownEventTypeError(event.type);
  const definition = EventRegistry[event.type];
  const result = definition.data.safeParse(event.data);
  if (!result.success) throw new InvalidEventDataError(event.type, definition.version, result.error.issues);
  return { type: event.type, data: result.data as Event['data'], metadata: metadataOf(context, definition.version) };
}

/** Validated metadata of frozen contexts, by schema version: a command's events share one context. */
const validatedMetadata = new WeakMap<EventContext, Map<number, EventMetadata>>();

/**
 * The context validated and stamped with the schema version. A frozen context cannot change, so it
 * is validated once per version (the command handler freezes the one its events share).
 */
function metadataOf(context: EventContext, schemaVersion: number): EventMetadata {
  if (!Object.isFrozen(context)) return eventMetadata.parse({ ...context, schemaVersion });
  let byVersion = validatedMetadata.get(context);
  if (!byVersion) validatedMetadata.set(context, (byVersion = new Map()));
  let metadata = byVersion.get(schemaVersion);
  if (!metadata)
    byVersion.set(schemaVersion, (metadata = Object.freeze(eventMetadata.parse({ ...context, schemaVersion }))));
  return metadata;
}
