import { isCurrencyCode, tryParseAmount } from '@reelstream/money';
import { z } from 'zod';

/**
 * The game catalog (config/catalog.json) as data: providers and games, with each game naming the
 * math model that plays it. Structure only; the rules across fields and against the models are
 * checked by the game domain's `parseCatalog`.
 */

const betLevelList = z
  .array(z.number().positive().finite())
  .min(1)
  .refine(
    (levels) => levels.every((level, index) => index === 0 || level > (levels[index - 1] ?? 0)),
    'bet levels must be strictly ascending',
  );

/** `default` in currency units for any currency, plus optional per-currency lists (e.g. KRW, JPY). */
const betLevelsSchema = z.record(z.string(), betLevelList).superRefine((levels, ctx) => {
  if (!levels['default']) ctx.addIssue({ code: 'custom', message: 'bet levels need a "default" list' });
  for (const [currency, list] of Object.entries(levels)) {
    if (currency === 'default') continue;
    if (!isCurrencyCode(currency)) {
      ctx.addIssue({ code: 'custom', path: [currency], message: `${currency} is not an ISO 4217 currency code` });
      continue;
    }
    const inexact = list.find((level) => !tryParseAmount(level, currency).ok);
    if (inexact !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: [currency],
        message: `bet level ${inexact} cannot be expressed in ${currency}`,
      });
  }
});

const providerSchema = z.strictObject({
  providerId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  name: z.string().trim().min(1),
});

const gameTypes = ['slot', 'instant'] as const;
const volatilities = ['low', 'medium', 'high'] as const;

const gameSchema = z.strictObject({
  gameId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  providerId: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  name: z.string().trim().min(1),
  type: z.enum(gameTypes),
  /** Id of the math model in @reelstream/game-domain. */
  model: z.string().min(1),
  /** Return to player of ordinary sessions, as a fraction (0.96 = 96 %). */
  rtp: z.number().gt(0).lt(1),
  /** Return to player of isStreamer sessions: above 100 % (spec §2.3). */
  streamerRtp: z.number().gt(1).lt(2),
  volatility: z.enum(volatilities),
  betLevels: betLevelsSchema,
  supportsFreeSpins: z.boolean(),
  /**
   * Whether a Regular Bonus Call can be delivered in the game: its paid spins can be steered
   * (ADR 0012). An instant game cannot: its outcome is drawn before the bet.
   */
  supportsRegularBonusCall: z.boolean(),
  /** Interface languages, ISO 639-1 (optionally with a region: zh-TW). */
  languages: z.array(z.string().regex(/^[a-z]{2}(-[A-Z]{2})?$/, 'language must be an ISO 639-1 code')).min(1),
});

export const catalogSchema = z.strictObject({
  providers: z.array(providerSchema).min(1),
  games: z.array(gameSchema).min(1),
});

export type CatalogProvider = z.infer<typeof providerSchema>;
export type CatalogGame = z.infer<typeof gameSchema>;
export type Catalog = z.infer<typeof catalogSchema>;
