/**
 * Provider and game lists (decisions.md D15): `GET /v1/providers`, `GET /v1/games?providerId=`, the
 * source of valid providerId and gameId values (spec §4.3).
 */
import * as z from 'zod';
import { catalogId } from '../shared/primitives.js';
import { longIdText } from '../shared/ids.js';
import { okEnvelope } from './envelope.js';

export const provider = z.strictObject({ providerId: catalogId, name: z.string().min(1).max(100) }).meta({
  id: 'Provider',
  description: 'A game provider.',
  examples: [{ providerId: 7, name: 'Reelstream Originals' }],
});
export type Provider = z.infer<typeof provider>;

export const GAME_TYPES = ['slot', 'instant'] as const;

const gameExample = {
  gameId: 1001,
  providerId: 7,
  name: 'Lucky Lanterns',
  type: 'slot',
  supportsFreeSpins: true,
  supportsRegularBonusCall: true,
  rtp: 96.1,
  languages: ['en', 'ko'],
  betLevels: [0.1, 0.2, 0.5, 1, 2, 5],
} as const;

export const game = z
  .strictObject({
    gameId: catalogId,
    providerId: catalogId,
    name: z.string().min(1).max(100),
    type: z.enum(GAME_TYPES),
    supportsFreeSpins: z.boolean().meta({ description: 'Whether the game can be part of a Free Spin Bonus.' }),
    supportsRegularBonusCall: z.boolean().meta({
      description:
        'Whether the game can be part of a Regular Bonus Call (bonusType 2): its paid spins can be steered to deliver the target. False for an instant game; naming such a game in a bonusType 2 registration is 422 REGULAR_BONUS_NOT_SUPPORTED.',
    }),
    rtp: z
      .number()
      .gt(0)
      .lte(100)
      .meta({ description: 'Theoretical return to player of the standard profile, in percent (96.1 means 96.1%).' }),
    languages: z
      .array(z.string().min(2).max(16))
      .min(1)
      .meta({ description: 'Interface languages the game supports.' }),
    betLevels: z
      .array(z.number().positive())
      .min(1)
      .refine((levels) => levels.every((level, index) => index === 0 || level > (levels[index - 1] as number)), {
        error: 'betLevels must be strictly ascending',
      })
      .meta({ description: 'Bets the game accepts per spin, in currency units, ascending.' }),
  })
  .meta({ id: 'Game', description: 'A game of a provider.', examples: [gameExample] });
export type Game = z.infer<typeof game>;

export const listProvidersResponse = okEnvelope(z.array(provider)).meta({
  id: 'ListProvidersResponse',
  description: 'GET /v1/providers: every provider.',
  examples: [{ success: true, message: 'OK', data: [{ providerId: 7, name: 'Reelstream Originals' }] }],
});

export const listGamesQueryParams = z
  .strictObject({ providerId: longIdText.optional().meta({ description: 'Only the games of this provider.' }) })
  .meta({
    id: 'ListGamesQuery',
    description: 'Query of GET /v1/games; without providerId every game is listed.',
    examples: [{ providerId: '7' }, {}],
  });

export const listGamesResponse = okEnvelope(z.array(game)).meta({
  id: 'ListGamesResponse',
  description: 'GET /v1/games: the games, optionally of one provider.',
  examples: [{ success: true, message: 'OK', data: [gameExample] }],
});
