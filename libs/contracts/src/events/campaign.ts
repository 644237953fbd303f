/**
 * The `campaign-{operatorId}-{campaignId}` stream (docs/adr/0010-campaigns.md): a campaign's request,
 * stored once by the gateway, and its progress, recorded by the bonus-ledger's campaign worker in
 * batches. Its events are not bonus events: no relay, projection or webhook reads this category.
 * Version 1 unless stated.
 */
import * as z from 'zod';
import { bonusTypeValue, spinAmountValue } from '../api/bonus-call.js';
import { campaignId, MAX_CAMPAIGN_PLAYERS } from '../api/campaigns.js';
import { errorCode } from '../api/errors.js';
import { bonusGameIds } from '../commands/bonus-record.js';
import { registerBonusCallData } from '../commands/bonus.js';
import { catalogId, currencyCode, isoInstant, longId, playerId, sha256Hex } from '../shared/primitives.js';
import { eventMetadata, type EventContext, type EventMetadata } from './metadata.js';
import { encodeStreamComponent } from './streams.js';

export const CAMPAIGN_STREAM_PREFIX = 'campaign-';

export function campaignStream(operator: string, campaign: string): string {
  return `${CAMPAIGN_STREAM_PREFIX}${encodeStreamComponent(operator)}-${encodeStreamComponent(campaign)}`;
}

/** The operator and campaign a campaign stream id names, or undefined for any other stream id. */
export function parseCampaignStream(streamId: string): { operatorId: string; campaignId: string } | undefined {
  if (!streamId.startsWith(CAMPAIGN_STREAM_PREFIX)) return undefined;
  const parts = streamId.slice(CAMPAIGN_STREAM_PREFIX.length).split('-');
  if (parts.length !== 2) return undefined;
  try {
    const [operator, campaign] = parts.map((part) => decodeURIComponent(part)) as [string, string];
    return campaignStream(operator, campaign) === streamId ? { operatorId: operator, campaignId: campaign } : undefined;
  } catch {
    return undefined;
  }
}

/** The terms as the operator sent them, normalised (the input of each registration's request hash). */
const requestedTerms = z.strictObject({
  providerId: catalogId,
  gameIds: z.array(catalogId).min(1),
  bonusType: bonusTypeValue,
  callAmount: z.number().positive(),
  currency: currencyCode.optional(),
  expireAt: z.string().min(1),
  metaData: z.strictObject({ spinAmount: spinAmountValue, baseBetAmount: z.number().positive() }).optional(),
});

/** The terms as each RegisterBonusCall command carries them: minor units, expireAt as an instant. */
const {
  operatorId: _operator,
  platformId: _platform,
  requestHash: _hash,
  playerId: _player,
  ...commandShape
} = registerBonusCallData.shape;
const commandTerms = z.strictObject({ ...commandShape, gameIds: bonusGameIds });

const campaignStartedData = z.strictObject({
  campaignId,
  /** SHA-256 of the normalised campaign request: the same campaignId with another hash is CAMPAIGN_ID_CONFLICT. */
  requestHash: sha256Hex,
  requested: requestedTerms,
  terms: commandTerms,
  players: z.array(playerId).min(1).max(MAX_CAMPAIGN_PLAYERS),
  startedAt: isoInstant,
});

const registeredPlayer = z.strictObject({ playerId, issueId: longId });
const refusedPlayer = z.strictObject({ playerId, code: errorCode, message: z.string().max(1_000) });

const campaignPlayersRegisteredData = z.strictObject({ players: z.array(registeredPlayer).min(1) });
const campaignPlayersRefusedData = z.strictObject({ players: z.array(refusedPlayer).min(1) });
const campaignCompletedData = z.strictObject({
  registered: z.number().int().min(0),
  refused: z.number().int().min(0),
  completedAt: isoInstant,
});

const campaignEventSchemas = {
  CampaignStarted: campaignStartedData,
  CampaignPlayersRegistered: campaignPlayersRegisteredData,
  CampaignPlayersRefused: campaignPlayersRefusedData,
  CampaignCompleted: campaignCompletedData,
} as const;

export type CampaignEvent = {
  [Type in keyof typeof campaignEventSchemas]: { type: Type; data: z.infer<(typeof campaignEventSchemas)[Type]> };
}[keyof typeof campaignEventSchemas];
export type CampaignStarted = Extract<CampaignEvent, { type: 'CampaignStarted' }>;
export type RefusedCampaignPlayer = z.infer<typeof refusedPlayer>;
export type RegisteredCampaignPlayer = z.infer<typeof registeredPlayer>;

const CAMPAIGN_SCHEMA_VERSION = 1;

function isCampaignEventType(type: string): type is CampaignEvent['type'] {
  return Object.hasOwn(campaignEventSchemas, type);
}

/** A stored campaign event, validated; throws for anything a campaign stream must not hold. */
export function parseCampaignEvent(stored: {
  type: string;
  data: unknown;
  metadata?: { schemaVersion?: unknown };
}): CampaignEvent {
  if (!isCampaignEventType(stored.type)) throw new Error(`${stored.type} is not a campaign event`);
  const version = stored.metadata?.schemaVersion ?? CAMPAIGN_SCHEMA_VERSION;
  if (version !== CAMPAIGN_SCHEMA_VERSION)
    throw new Error(`${stored.type} version ${String(version)} is not readable by this version of the code`);
  return { type: stored.type, data: campaignEventSchemas[stored.type].parse(stored.data) } as CampaignEvent;
}

/** The `{type, data, metadata}` to append: data validated, `schemaVersion` stamped. */
export function campaignEventToAppend(
  event: CampaignEvent,
  context: EventContext,
): { type: string; data: unknown; metadata: EventMetadata } {
  const data = campaignEventSchemas[event.type].parse(event.data);
  return {
    type: event.type,
    data,
    metadata: eventMetadata.parse({ ...context, schemaVersion: CAMPAIGN_SCHEMA_VERSION }),
  };
}
