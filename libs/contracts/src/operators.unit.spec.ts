import { createHash } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import {
  apiTokenDigest,
  isOrigin,
  OperatorsConfigError,
  parseOperatorsConfig,
  parseOperatorsJson,
} from './operators.js';

const demo = {
  id: 'demo',
  name: 'Demo Casino',
  apiToken: 'demo-api-token-0123456789',
  callbackUrl: 'http://localhost:8082/wallet',
  signingSecret: 'demo-signing-secret-0123',
  currency: 'EUR',
};

function problemsOf(value: unknown): string[] {
  try {
    parseOperatorsConfig(value);
  } catch (error) {
    if (error instanceof OperatorsConfigError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('operator config: the version 2 form and the signature scheme of an operator that names none', () => {
  it('signs body in a bare array (version 1, written before timestamp.body was the default) and timestamp.body in version 2', () => {
    expect(parseOperatorsConfig([demo])[0]?.signatureScheme).toBe('body');
    expect(parseOperatorsConfig({ version: 2, operators: [demo] })[0]?.signatureScheme).toBe('timestamp.body');
  });

  it('keeps a scheme the operator names, in either form', () => {
    for (const signatureScheme of ['body', 'timestamp.body'] as const) {
      expect(parseOperatorsConfig([{ ...demo, signatureScheme }])[0]?.signatureScheme).toBe(signatureScheme);
      expect(parseOperatorsConfig({ version: 2, operators: [{ ...demo, signatureScheme }] })[0]?.signatureScheme).toBe(
        signatureScheme,
      );
    }
  });

  it('names the problem of a document that is neither form, and the operator keys inside version 2 as in version 1', () => {
    expect(problemsOf({ version: 3, operators: [demo] })).toEqual([
      'operators: expected an array of operators, or {"version": 2, "operators": […]} (version: version must be 2 (or write the operators as a bare array, version 1))',
    ]);
    expect(problemsOf({ operators: [demo] })).toEqual([
      'operators: expected an array of operators, or {"version": 2, "operators": […]}',
    ]);
    expect(problemsOf({ version: 2, operators: [{ ...demo, timeZone: 'Mars/Base' }] })).toEqual([
      expect.stringMatching(/^operators\[0\]\.timeZone: /),
    ]);
  });
});

describe('operator config: defaults (docs/configuration.md, D5, D7)', () => {
  it('fills timeZone UTC, no return origins, string ids, regular bonus and streamers off, and keeps the token only as its SHA-256', () => {
    const [operator] = parseOperatorsConfig([demo]);
    expect(operator).toEqual({
      id: 'demo',
      name: 'Demo Casino',
      apiTokenSha256: createHash('sha256').update(demo.apiToken).digest('hex'),
      callbackUrl: 'http://localhost:8082/wallet',
      signingSecrets: ['demo-signing-secret-0123'],
      currency: 'EUR',
      currencies: ['EUR'],
      limits: {},
      timeZone: 'UTC',
      allowedReturnOrigins: [],
      callbackIdEncoding: 'string',
      signatureScheme: 'body',
      features: { regularBonusCall: false, streamers: false },
    });
  });

  it('keeps a webhookUrl when given and has none by default', () => {
    expect(parseOperatorsConfig([demo])[0]).not.toHaveProperty('webhookUrl');
    const [operator] = parseOperatorsConfig([{ ...demo, webhookUrl: 'https://casino.example/hooks/bonus' }]);
    expect(operator?.webhookUrl).toBe('https://casino.example/hooks/bonus');
  });

  it('takes allowed currencies and per-currency limits (a bonus call in another currency than the default)', () => {
    const [operator] = parseOperatorsConfig([
      {
        ...demo,
        currencies: ['EUR', 'KRW'],
        limits: { EUR: { maxCallAmount: 500 }, KRW: { maxCallAmount: 700_000, maxBaseBetAmount: 2_000 } },
      },
    ]);
    expect(operator).toMatchObject({
      currency: 'EUR',
      currencies: ['EUR', 'KRW'],
      limits: { EUR: { maxCallAmount: 500 }, KRW: { maxCallAmount: 700_000, maxBaseBetAmount: 2_000 } },
    });
  });

  it('accepts every option set explicitly, a digest instead of a token, and two secrets for rotation (D8)', () => {
    const digest = createHash('sha256').update('another-operator-token').digest('hex').toUpperCase();
    const [operator] = parseOperatorsConfig([
      {
        ...demo,
        apiToken: undefined,
        apiTokenSha256: digest,
        signingSecret: ['new-signing-secret-000', 'old-signing-secret-000'],
        timeZone: 'Asia/Seoul',
        allowedReturnOrigins: ['https://casino.example', 'http://localhost:3000'],
        callbackIdEncoding: 'number',
        signatureScheme: 'timestamp.body',
        features: { regularBonusCall: true },
      },
    ]);
    expect(operator).toMatchObject({
      apiTokenSha256: digest.toLowerCase(),
      signingSecrets: ['new-signing-secret-000', 'old-signing-secret-000'],
      timeZone: 'Asia/Seoul',
      callbackIdEncoding: 'number',
      signatureScheme: 'timestamp.body',
      features: { regularBonusCall: true },
    });
  });
});

describe('operator config: rateLimit', () => {
  it('is absent unless given, and keeps only the keys given (the rest is the gateway default)', () => {
    const [plain, own] = parseOperatorsConfig([
      demo,
      { ...demo, id: 'own', apiToken: 'own-api-token-0123456789', rateLimit: { burst: 500 } },
    ]);
    expect(plain?.rateLimit).toBeUndefined();
    expect(own?.rateLimit).toEqual({ burst: 500 });
  });
});

describe('operator config: errors name the key (the platform prints them at start-up)', () => {
  it.each([
    [
      { timeZone: 'Mars/Base' },
      'operators[0].timeZone: "Mars/Base" is not an IANA time zone such as Asia/Seoul or UTC',
    ],
    [{ currency: 'EURO' }, 'operators[0].currency: currency must be an upper-case ISO 4217 code such as EUR'],
    [{ currency: 'XYZ' }, 'operators[0].currency: currency "XYZ" is not an ISO 4217 code this platform supports'],
    [{ callbackUrl: 'ftp://wallet.example' }, 'operators[0].callbackUrl: expected an absolute http:// or https:// URL'],
    [{ webhookUrl: 'ftp://hooks.example' }, 'operators[0].webhookUrl: expected an absolute http:// or https:// URL'],
    [{ callbackIdEncoding: 'hex' }, 'operators[0].callbackIdEncoding: callbackIdEncoding must be "string" or "number"'],
    [
      { signatureScheme: 'timestamp' },
      'operators[0].signatureScheme: signatureScheme must be "body" or "timestamp.body"',
    ],
    [
      { allowedReturnOrigins: ['https://casino.example/lobby'] },
      'operators[0].allowedReturnOrigins[0]: "https://casino.example/lobby" is not an origin such as https://casino.example (no path, no trailing slash)',
    ],
    [{ apiToken: 'short' }, 'operators[0].apiToken: apiToken must be at least 16 characters'],
    [{ signingSecret: 'short' }, 'operators[0].signingSecret: signingSecret must be at least 16 characters'],
    [
      { signingSecret: ['a-long-signing-secret', 'a-long-signing-secret'] },
      'operators[0].signingSecret: the two signing secrets must differ',
    ],
    [
      { signingSecret: ['secret-number-one-1', 'secret-number-two-2', 'secret-number-three'] },
      'operators[0].signingSecret: signingSecret must be a string or an array of 1–2 strings (the current secret first)',
    ],
    [
      { apiToken: undefined, apiTokenSha256: 'abc' },
      'operators[0].apiTokenSha256: apiTokenSha256 must be the SHA-256 of the token as 64 hex characters',
    ],
    [{ apiTokenSha256: 'a'.repeat(64) }, 'operators[0].apiToken: give exactly one of apiToken and apiTokenSha256'],
    [
      { id: 'bad id' },
      'operators[0].id: operator id must be 1–64 characters of A–Z, a–z, 0–9, _, . or -, starting with a letter or digit',
    ],
    [
      { features: { regularBonusCalls: true } },
      'operators[0].features.regularBonusCalls: unknown key "regularBonusCalls"',
    ],
    [{ timezone: 'UTC' }, 'operators[0].timezone: unknown key "timezone"'],
    [{ currencies: ['KRW'] }, 'operators[0].currencies: currencies must include the default currency EUR'],
    [{ currencies: ['EUR', 'EUR'] }, 'operators[0].currencies: currencies must not repeat a currency'],
    [
      { currencies: ['EUR', 'eur'] },
      'operators[0].currencies[1]: currency must be an upper-case ISO 4217 code such as EUR',
    ],
    [
      { limits: { KRW: { maxCallAmount: 1 } } },
      'operators[0].limits.KRW: limits are for an allowed currency (EUR), not "KRW"',
    ],
    [
      { currencies: ['EUR', 'KRW'], limits: { KRW: { maxBaseBetAmount: 0.5 } } },
      'operators[0].limits.KRW.maxBaseBetAmount: amount 0.5 has more than 0 decimal place(s) allowed for KRW',
    ],
    [
      { limits: { EUR: { maxCallAmount: -1 } } },
      'operators[0].limits.EUR.maxCallAmount: Too small: expected number to be >0',
    ],
    [{ limits: { EUR: { maxWin: 1 } } }, 'operators[0].limits.EUR.maxWin: unknown key "maxWin"'],
    [{ rateLimit: { perSecond: 0 } }, 'operators[0].rateLimit.perSecond: rateLimit.perSecond must be above 0'],
    [{ rateLimit: { burst: 0.5 } }, 'operators[0].rateLimit.burst: rateLimit.burst must be a whole number of requests'],
    [{ rateLimit: { burst: 0 } }, 'operators[0].rateLimit.burst: rateLimit.burst must be at least 1'],
    [{ rateLimit: { rps: 10 } }, 'operators[0].rateLimit.rps: unknown key "rps"'],
  ])('%j → %s', (overrides, message) => {
    expect(problemsOf([{ ...demo, ...overrides }])).toEqual([message]);
  });

  it('names a missing key', () => {
    const { currency: _currency, ...withoutCurrency } = demo;
    expect(problemsOf([withoutCurrency])).toEqual([expect.stringMatching(/^operators\[0\]\.currency: /)]);
  });

  it('refuses an empty list and a list that is not an array', () => {
    expect(problemsOf([])).toEqual(['operators: at least one operator must be configured']);
    expect(problemsOf(demo)).toEqual([expect.stringMatching(/^operators: /)]);
  });

  it('refuses duplicate ids, naming both entries', () => {
    expect(problemsOf([demo, { ...demo, apiToken: 'second-operator-token' }])).toEqual([
      'operators[1].id: duplicate id "demo" (also operators[0])',
    ]);
  });

  it('refuses the same token twice, also when one operator gives it as a digest', () => {
    const second = { ...demo, id: 'other' };
    expect(problemsOf([demo, second])).toEqual([
      'operators[1].apiToken: the API token is the same as the one of operators[0]; every operator needs its own',
    ]);
    const hashed = {
      ...second,
      apiToken: undefined,
      apiTokenSha256: createHash('sha256').update(demo.apiToken).digest('hex'),
    };
    expect(problemsOf([demo, hashed])).toHaveLength(1);
  });

  it('reports every problem of every operator, not only the first', () => {
    expect(
      problemsOf([
        { ...demo, timeZone: 'Nowhere' },
        { ...demo, id: 'b', apiToken: 'b-operator-token-xyz', currency: 'usd' },
      ]),
    ).toEqual([
      'operators[0].timeZone: "Nowhere" is not an IANA time zone such as Asia/Seoul or UTC',
      'operators[1].currency: currency must be an upper-case ISO 4217 code such as EUR',
    ]);
  });

  it('parseOperatorsJson reports text that is not JSON with its source', () => {
    expect(() => parseOperatorsJson('[{', 'OPERATORS_FILE=/etc/ops.json')).toThrow(
      /invalid operator configuration in OPERATORS_FILE=\/etc\/ops.json:\n {2}- not valid JSON/,
    );
    expect(parseOperatorsJson(JSON.stringify([demo]))[0]?.id).toBe('demo');
  });

  it('the error message lists each problem on its own line', () => {
    expect(() => parseOperatorsConfig([{ ...demo, timeZone: 'Nowhere' }])).toThrow(
      'invalid operator configuration in OPERATORS_JSON:\n  - operators[0].timeZone: "Nowhere" is not an IANA time zone such as Asia/Seoul or UTC',
    );
  });
});

describe('isOrigin and apiTokenDigest', () => {
  it.each([
    ['https://casino.example', true],
    ['http://localhost:3000', true],
    ['https://casino.example/', false],
    ['https://Casino.example', false],
    ['https://casino.example:443', false],
    ['ftp://casino.example', false],
    ['casino.example', false],
  ])('isOrigin(%s) = %s', (value, expected) => expect(isOrigin(value)).toBe(expected));

  it('apiTokenDigest is the SHA-256 hex the gateway compares', () => {
    expect(apiTokenDigest('demo-api-token-0123456789')).toBe(
      createHash('sha256').update('demo-api-token-0123456789').digest('hex'),
    );
  });

  // Computed by the hand-written SHA-256 before node:crypto replaced it; configured digests must still match.
  it.each([
    ['demo-api-token-change-me', '4d0b8aebc87e74e196dbef295ce0e8f6133b7d62a316d733de104cf9e11fecbb'],
    ['tökén-Ωmega-日本語-🎰-0123456789', '0e15fc54ac90e256da946291c226158eede30739ab256c36e9aed33ca4918781'],
    ['x'.repeat(55), 'd5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072'],
    ['y'.repeat(56), '4877e564e5e36e367c7c8d59670774becd3350610b6df4c399c9fa9b66da5813'],
    ['z'.repeat(64), '72996563049cc84daa2c3f31fd5c3d10770e69d6ebbb8da5b6d76db303dbae43'],
    ['a\uD800b-lone-surrogate-token', '424f09150115128c535e8147670d5a462513f21cc1e87a03fc96b377c8212d9b'],
  ])('apiTokenDigest(%j) and the parsed apiTokenSha256 keep the digest they had', (token, digest) => {
    expect(apiTokenDigest(token)).toBe(digest);
    expect(parseOperatorsConfig([{ ...demo, apiToken: token }])[0]?.apiTokenSha256).toBe(digest);
  });
});
