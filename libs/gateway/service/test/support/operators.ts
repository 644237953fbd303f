import { apiTokenDigest, type OperatorConfigInput } from '@reelstream/contracts';

/** Three tenants with different currencies, zones and features, so each rule meets its context. */
export const TOKENS = {
  a: 'token-of-casino-a-0123456789abcdef',
  b: 'token-of-casino-b-0123456789abcdef',
  c: 'token-of-casino-c-0123456789abcdef',
} as const;

export const OPERATOR_IDS = { a: 'casino-a', b: 'casino-b', c: 'casino-c' } as const;

export const testOperators: OperatorConfigInput[] = [
  {
    id: OPERATOR_IDS.a,
    name: 'Casino A (EUR, UTC, allowed return origins)',
    apiToken: TOKENS.a,
    callbackUrl: 'http://127.0.0.1:9/wallet/casino-a',
    signingSecret: 'signing-secret-of-casino-a',
    currency: 'EUR',
    timeZone: 'UTC',
    allowedReturnOrigins: ['https://casino-a.example', 'http://localhost:3000'],
    // A second currency, and a limit as high as the schema allows (the boundary tests need it).
    currencies: ['EUR', 'KRW'],
    limits: { EUR: { maxCallAmount: 100_000_000_000 } },
    // Launches streamer sessions; casino B and C do not (the feature's default).
    features: { streamers: true },
  },
  {
    // Configured by digest only: the token itself is never in the configuration.
    id: OPERATOR_IDS.b,
    name: 'Casino B (KRW, Seoul, regular bonus calls)',
    apiTokenSha256: apiTokenDigest(TOKENS.b),
    callbackUrl: 'http://127.0.0.1:9/wallet/casino-b',
    signingSecret: ['signing-secret-of-casino-b', 'previous-secret-of-casino-b'],
    currency: 'KRW',
    timeZone: 'Asia/Seoul',
    features: { regularBonusCall: true },
  },
  {
    id: OPERATOR_IDS.c,
    name: 'Casino C (USD, New York)',
    apiToken: TOKENS.c,
    callbackUrl: 'http://127.0.0.1:9/wallet/casino-c',
    signingSecret: 'signing-secret-of-casino-c',
    currency: 'USD',
    timeZone: 'America/New_York',
  },
];
