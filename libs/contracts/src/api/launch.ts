/**
 * `POST /v1/game/launch` (spec §2.3, §4.3; decisions.md D6, D19): a session-specific launch URL.
 */
import * as z from 'zod';
import { catalogId, currencyCode, httpUrl, playerId } from '../shared/primitives.js';
import { okEnvelope } from './envelope.js';

/**
 * BCP-47-ish: a 2–3 letter language, an optional 4-letter script and an optional region
 * (2 letters or 3 digits), separated by `-` (or `_`, which some operators send). Normalised to
 * the canonical case: `zh_hant_tw` → `zh-Hant-TW`.
 */
const LANGUAGE_PATTERN = /^([A-Za-z]{2,3})(?:[-_]([A-Za-z]{4}))?(?:[-_]([A-Za-z]{2}|[0-9]{3}))?$/;

export function normaliseLanguageTag(tag: string): string | undefined {
  const match = LANGUAGE_PATTERN.exec(tag);
  if (!match) return undefined;
  const [, language = '', script, region] = match;
  const parts = [language.toLowerCase()];
  if (script) parts.push(script.charAt(0).toUpperCase() + script.slice(1).toLowerCase());
  if (region) parts.push(region.toUpperCase());
  return parts.join('-');
}

export const languageTag = z
  .string()
  .regex(LANGUAGE_PATTERN, { error: 'language must be a language code such as en, ko or zh-CN' })
  .transform((tag) => normaliseLanguageTag(tag) as string)
  .meta({
    description: 'Language of the game interface: a 2–3 letter code with optional script and region (en, ko, zh-CN).',
    examples: ['en'],
  });

/** The URL the player returns to: absolute http(s) only (D19); `javascript:` and friends never reach a page. */
const returnUrl = httpUrl.meta({
  description: 'Absolute http(s) URL the player is sent to on leaving the game.',
  examples: ['https://casino.example/lobby'],
});

/**
 * D19's contextual half: with allowed origins configured, the URL's origin must be one of them
 * (compared as origins, so `https://casino.example:443` equals `https://casino.example`).
 * An operator without allowed origins accepts any http(s) URL.
 */
export function isReturnUrlAllowed(url: string, allowedOrigins: readonly string[]): boolean {
  let origin: string;
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
    origin = parsed.origin;
  } catch {
    return false;
  }
  if (allowedOrigins.length === 0) return true;
  return allowedOrigins.some((allowed) => {
    try {
      return new URL(allowed).origin === origin;
    } catch {
      return false;
    }
  });
}

export const launchGameRequest = z
  .strictObject({
    playerId,
    providerId: catalogId,
    gameId: catalogId,
    language: languageTag,
    returnUrl,
    isStreamer: z.boolean({ error: 'isStreamer must be true or false (a JSON boolean)' }).meta({
      description:
        "When true, the player's results stay out of the agent report and the streamer RTP profile applies (above 100 %). Only for an operator with the streamers feature; otherwise 403 STREAMER_NOT_ALLOWED.",
    }),
    currency: currencyCode
      .optional()
      .meta({ description: "The player's currency; the operator's default currency when omitted." }),
    demo: z.boolean({ error: 'demo must be true or false (a JSON boolean)' }).optional().meta({
      description: 'A play-money session: no wallet callbacks, the game-server keeps a demo balance. Default false.',
    }),
  })
  .meta({
    id: 'LaunchGameRequest',
    description: 'Body of POST /v1/game/launch.',
    examples: [
      {
        playerId: 'player_42',
        providerId: 7,
        gameId: 1001,
        language: 'en',
        returnUrl: 'https://casino.example/lobby',
        isStreamer: false,
      },
      {
        playerId: 'streamer_1',
        providerId: 7,
        gameId: 1002,
        language: 'ko',
        returnUrl: 'https://casino.example/',
        isStreamer: true,
        currency: 'KRW',
      },
      {
        playerId: 'visitor_7',
        providerId: 7,
        gameId: 1001,
        language: 'ja',
        returnUrl: 'https://casino.example/',
        isStreamer: false,
        demo: true,
      },
    ],
  });
export type LaunchGameRequest = z.output<typeof launchGameRequest>;

export const launchGameResponse = okEnvelope(
  httpUrl.meta({
    description:
      'The launch URL: {launch_host}/launch?token=<SESSION_TOKEN>. The token is the session’s only credential: only this URL carries it (the platform’s event log keeps its SHA-256).',
  }),
).meta({
  id: 'LaunchGameResponse',
  description: 'The session-specific launch URL.',
  examples: [
    {
      success: true,
      message: 'OK',
      data: 'http://localhost:8081/launch?token=q3Yx0mVb7m2c1kTzV3dH0rFfQm8uJ6nE9sWc4aLpB2g',
    },
  ],
});
