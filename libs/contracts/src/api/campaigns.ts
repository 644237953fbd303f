/**
 * Campaigns (docs/adr/0010-campaigns.md): `POST /v1/bonus-call/campaigns` registers
 * the same bonus terms for up to 10,000 players in one call, `GET /v1/bonus-call/campaigns/{campaignId}`
 * reports its progress. Each player's registration is an ordinary bonus call whose platformId is
 * `{campaignId}:{playerId}`, so it can be read and canceled like any other.
 */
import * as z from 'zod';
import { allDistinct, isoInstant, playerId } from '../shared/primitives.js';
import { normalisedTerms, registrationTermsShape, requireFreeSpinMetaData } from './bonus-call.js';
import { errorCode } from './errors.js';
import { okEnvelope } from './envelope.js';

/** Players of one campaign at most: their ids fit in one stored event (≈ 0.5 MB, under EventStoreDB's 1 MB). */
export const MAX_CAMPAIGN_PLAYERS = 10_000;

/**
 * A campaign id: 1–13 of A–Z a–z 0–9 _ . -, starting with a letter or digit. Short because each
 * registration's platformId is `{campaignId}:{playerId}`, and a platformId is at most 64
 * characters while a playerId may have 50.
 */
const CAMPAIGN_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,12}$/;
export const campaignId = z
  .string()
  .regex(CAMPAIGN_ID_PATTERN, {
    error: 'campaignId must be 1–13 characters of A–Z, a–z, 0–9, _, . or -, starting with a letter or digit',
  })
  .meta({
    description:
      'Your id of the campaign (1–13 characters of A–Z a–z 0–9 _ . -): its idempotency key. Each registration of the campaign has the platformId `{campaignId}:{playerId}`.',
    examples: ['summer-26'],
  });

/** The platformId of one player's registration in a campaign: the key that makes it idempotent. */
export function campaignPlatformId(campaign: string, player: string): string {
  return `${campaign}:${player}`;
}

const startCampaignBody = z
  .strictObject({
    campaignId,
    players: z
      .array(playerId)
      .min(1, { error: 'players must list at least one playerId' })
      .max(MAX_CAMPAIGN_PLAYERS, { error: `players must list at most ${MAX_CAMPAIGN_PLAYERS} playerIds` })
      .refine((players) => allDistinct(players), { error: 'players must not list the same playerId twice' })
      .meta({ description: `The players, 1–${MAX_CAMPAIGN_PLAYERS} distinct playerIds.` }),
    ...registrationTermsShape,
  })
  .superRefine(requireFreeSpinMetaData);

export const startCampaignRequest = startCampaignBody
  .transform((body) => ({ campaignId: body.campaignId, players: [...body.players], terms: normalisedTerms(body) }))
  .meta({
    id: 'StartCampaignRequest',
    description:
      "Body of POST /v1/bonus-call/campaigns: the fields of a registration without platformId and playerId, with campaignId and the list of players. Validated whole before anything is stored, with the rules of a single registration. A new campaign of N players takes N of the operator's campaign budget (by default 10,000 at once, refilled at 50 a second); a campaign the budget cannot pay for now is answered 429 RATE_LIMITED with Retry-After and nothing is stored. A resend costs nothing.",
    examples: [
      {
        campaignId: 'summer-26',
        players: ['player_42', 'player_43', 'player_44'],
        providerId: 7,
        gameId: [1001, 1002],
        bonusType: 1,
        callAmount: 50,
        expireAt: '2026-06-30 23:59:59',
        metaData: { spinAmount: 10, baseBetAmount: 0.2 },
      },
    ],
  });
export type StartCampaignRequest = z.output<typeof startCampaignRequest>;

export const startCampaignResponse = okEnvelope(
  z.object({
    campaignId,
    total: z.number().int().positive().meta({ description: 'Players in the campaign.' }),
  }),
).meta({
  id: 'StartCampaignResponse',
  description:
    'Accepted (202): the registrations run in the background; follow them with GET /v1/bonus-call/campaigns/{campaignId}. The same request sent again answers the same, with the header Idempotent-Replayed: true.',
  examples: [{ success: true, message: 'OK', data: { campaignId: 'summer-26', total: 3 } }],
});

export const campaignPathParams = z.strictObject({ campaignId }).meta({
  id: 'CampaignPathParams',
  description: 'Path parameters of GET /v1/bonus-call/campaigns/{campaignId}.',
  examples: [{ campaignId: 'summer-26' }],
});

const MAX_CAMPAIGN_PAGE = 1_000;
const DEFAULT_CAMPAIGN_PAGE = 100;

export const campaignProgressQuery = z
  .strictObject({
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_CAMPAIGN_PAGE)
      .default(DEFAULT_CAMPAIGN_PAGE)
      .meta({ description: `Refusals per page, 1–${MAX_CAMPAIGN_PAGE} (default ${DEFAULT_CAMPAIGN_PAGE}).` }),
    cursor: z
      .string()
      .regex(/^(0|[1-9][0-9]{0,4})$/, { error: 'cursor must be a nextCursor this endpoint returned' })
      .optional()
      .meta({ description: 'The nextCursor of the previous page.' }),
  })
  .meta({
    id: 'CampaignProgressQuery',
    description: 'Query of GET /v1/bonus-call/campaigns/{campaignId}: paging of the refusals.',
    examples: [{ limit: 100 }, { limit: 100, cursor: '100' }],
  });

const campaignRefusal = z
  .strictObject({
    playerId,
    code: errorCode,
    message: z.string(),
  })
  .meta({
    id: 'CampaignRefusal',
    description:
      'A player the campaign did not register, with the code a single registration would have answered (e.g. ACTIVE_BONUS_EXISTS).',
  });

const campaignProgress = z
  .strictObject({
    campaignId,
    state: z
      .enum(['running', 'completed'])
      .meta({ description: '`completed` once every player is registered or refused.' }),
    total: z.number().int().positive(),
    registered: z.number().int().min(0),
    refused: z.number().int().min(0),
    pending: z.number().int().min(0).meta({ description: 'Players not yet registered nor refused.' }),
    startedAt: isoInstant,
    completedAt: isoInstant.nullable(),
    refusals: z
      .array(campaignRefusal)
      .meta({ description: 'One page of the refused players, in the order they were refused.' }),
    nextCursor: z.string().nullable().meta({ description: 'The cursor of the next page of refusals, or null.' }),
  })
  .meta({ id: 'CampaignProgress', description: "A campaign's progress." });
export type CampaignProgress = z.infer<typeof campaignProgress>;

export const campaignProgressResponse = okEnvelope(campaignProgress).meta({
  id: 'CampaignProgressResponse',
  description: "The campaign's progress and a page of its refusals.",
  examples: [
    {
      success: true,
      message: 'OK',
      data: {
        campaignId: 'summer-26',
        state: 'completed',
        total: 3,
        registered: 2,
        refused: 1,
        pending: 0,
        startedAt: '2026-05-01T09:30:00.000Z',
        completedAt: '2026-05-01T09:30:00.412Z',
        refusals: [
          {
            playerId: 'player_43',
            code: 'ACTIVE_BONUS_EXISTS',
            message: 'player player_43 already has the active bonus call 244376873632000; only one may run at a time',
          },
        ],
        nextCursor: null,
      },
    },
  ],
});
