/**
 * Generated request bodies for the fuzz test: mostly invalid ones (wrong types, missing and
 * unknown fields, huge strings, unicode, nested junk, numbers at the edges, broken JSON text),
 * some valid ones so the paths past validation run too.
 */
import fc from 'fast-check';

/** A body to send: a JSON value (serialised by the client) or raw text sent as is. */
export type FuzzBody = { kind: 'json'; value: unknown } | { kind: 'raw'; text: string };

const edgeNumbers = fc.constantFrom(
  0,
  -0,
  -1,
  1,
  0.1,
  0.2,
  1e-7,
  0.30000000000000004,
  1.005,
  99.999,
  2 ** 31,
  2 ** 32 + 1,
  Number.MAX_SAFE_INTEGER,
  Number.MAX_SAFE_INTEGER + 1,
  2 ** 64,
  1e21,
  1e308,
  -1e308,
  Number.MIN_VALUE,
  100_000_000_000,
  100_000_000_001,
  101,
  100,
  50,
  51,
);

const evilStrings = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\n',
    '🎰',
    'ñ',
    '\u202e',
    '\ud800',
    '𝕏'.repeat(200),
    'a'.repeat(20_000),
    'p'.repeat(50),
    'p'.repeat(51),
    '<script>alert(1)</script>',
    '../../etc/passwd',
    'null',
    'true',
    '1',
    '1e3',
    '0x10',
    '2026-06-30 23:59:59',
    '2026-02-30 00:00:00',
    'FreeSpin',
    'REGULAR',
    'javascript:alert(1)',
    'https://casino-a.example/',
    'en',
    'zh_hant_tw',
    'EUR',
    'eur',
    '__proto__',
    'constructor',
  ),
);

const deepNesting = fc.integer({ min: 1, max: 2_000 }).map((depth) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
});

/** Anything a field might be set to. */
const evilValue: fc.Arbitrary<unknown> = fc.oneof(
  edgeNumbers,
  evilStrings,
  fc.jsonValue({ maxDepth: 3 }),
  fc.constant(null),
  fc.boolean(),
  fc.array(fc.oneof(edgeNumbers, evilStrings), { maxLength: 120 }),
  deepNesting,
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A field set to an evil value, deleted (undefined), or an unknown field added. */
function mutated(
  valid: fc.Arbitrary<Record<string, unknown>>,
  fields: readonly string[],
): fc.Arbitrary<Record<string, unknown>> {
  const edit = fc.tuple(
    fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 12 })),
    fc.option(evilValue, { freq: 4 }),
  );
  return fc.tuple(valid, fc.array(edit, { minLength: 1, maxLength: 4 })).map(([body, edits]) => {
    const copy: Record<string, unknown> = structuredClone(body);
    for (const [path, value] of edits) {
      const [head, tail] = path.split('.', 2) as [string, string | undefined];
      if (tail !== undefined && typeof copy[head] === 'object' && copy[head] !== null && !Array.isArray(copy[head])) {
        const inner = copy[head] as Record<string, unknown>;
        if (value === null) delete inner[tail];
        else inner[tail] = value;
      } else if (value === null) {
        delete copy[head];
      } else {
        copy[head] = value;
      }
    }
    return copy;
  });
}

const rawTexts = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '{',
    '}',
    '{"a":',
    '{"a":1,}',
    "{'a':1}",
    '{"a":1}}',
    'nul',
    'true',
    '"text"',
    '42',
    '[]',
    '{}',
    '[1,2',
    '{"callAmount":1e400}',
    '{"callAmount":-0}',
    '{"issueId":9007199254740993}',
    '{"platformId":"a","platformId":"b"}',
    '{"__proto__":{"admin":true}}',
    '\ufeff{}',
    '{"playerId":"\\ud800"}',
    '{"playerId":"\\u0000"}',
    `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
    `{"metaData":${'{"a":'.repeat(3_000)}1${'}'.repeat(3_000)}}`,
  ),
  fc.string({ maxLength: 200 }),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value).slice(0, -1)),
);

function bodies(valid: fc.Arbitrary<Record<string, unknown>>, fields: readonly string[]): fc.Arbitrary<FuzzBody> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary: fc
        .oneof(
          fc.jsonValue({ maxDepth: 4 }),
          fc.object({ maxDepth: 3 }),
          fc.dictionary(fc.constantFrom(...fields), evilValue),
        )
        .map((value): FuzzBody => ({ kind: 'json', value })),
    },
    { weight: 5, arbitrary: mutated(valid, fields).map((value): FuzzBody => ({ kind: 'json', value })) },
    { weight: 1, arbitrary: valid.map((value): FuzzBody => ({ kind: 'json', value })) },
    { weight: 1, arbitrary: rawTexts.map((text): FuzzBody => ({ kind: 'raw', text })) },
  );
}

const players = fc.integer({ min: 0, max: 40 }).map((n) => `fz_player_${n}`);

const validRegister = fc.record(
  {
    platformId: fc.oneof(
      fc.integer({ min: 0, max: 300 }).map((n) => `fz-reg-${n}`),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/),
    ),
    providerId: fc.constantFrom(1, 2),
    gameId: fc.constantFrom<number | number[]>(101, [101, 102], 103, 201, [201, 202]),
    playerId: players,
    bonusType: fc.constantFrom<number | string>(1, 'FreeSpin', 'freespin'),
    callAmount: fc.constantFrom(5, 10.5, 100, 0.01, 200_000),
    // An allowed currency, one that is not, and levels that some games lack.
    currency: fc.constantFrom('EUR', 'KRW', 'USD'),
    expireAt: fc.constantFrom('2026-06-30 23:59:59', '2027-01-01 00:00:00'),
    metaData: fc.record({
      spinAmount: fc.integer({ min: 1, max: 100 }),
      baseBetAmount: fc.constantFrom(0.2, 1, 0.1, 0.3, 200),
    }),
  },
  {
    requiredKeys: ['platformId', 'providerId', 'gameId', 'playerId', 'bonusType', 'callAmount', 'expireAt', 'metaData'],
  },
);

/** Campaigns: a few players each, campaignIds that often repeat (resends and conflicts). */
const validCampaign = fc.record(
  {
    campaignId: fc.oneof(
      fc.integer({ min: 0, max: 300 }).map((n) => `fz-c-${n}`),
      fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,12}$/),
    ),
    players: fc.uniqueArray(players, { minLength: 1, maxLength: 5 }),
    providerId: fc.constantFrom(1, 2),
    gameId: fc.constantFrom<number | number[]>(101, [101, 102], 103, 201),
    bonusType: fc.constantFrom<number | string>(1, 'FreeSpin'),
    callAmount: fc.constantFrom(5, 10.5, 0.01, 200_000),
    currency: fc.constantFrom('EUR', 'KRW', 'USD'),
    expireAt: fc.constantFrom('2026-06-30 23:59:59', '2020-01-01 00:00:00'),
    metaData: fc.record({
      spinAmount: fc.integer({ min: 1, max: 100 }),
      baseBetAmount: fc.constantFrom(0.2, 1, 0.3),
    }),
  },
  {
    requiredKeys: ['campaignId', 'players', 'providerId', 'gameId', 'bonusType', 'callAmount', 'expireAt', 'metaData'],
  },
);

const validCancel = fc.oneof(
  fc.record({
    issueId: fc.oneof(
      fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
      fc.integer({ min: 1, max: 999_999 }).map(String),
    ),
  }),
  fc.record({ platformId: fc.integer({ min: 0, max: 60 }).map((n) => `fz-pre-${n}`) }),
);

const validLaunch = fc.record({
  playerId: fc.oneof(players, fc.stringMatching(/^[A-Za-z0-9_]{1,50}$/)),
  providerId: fc.constantFrom(1, 2),
  gameId: fc.constantFrom(101, 102, 103, 201, 202, 203),
  language: fc.constantFrom('en', 'ko', 'zh-CN', 'pt_br'),
  returnUrl: fc.constantFrom('https://casino-a.example/lobby', 'http://localhost:3000/x', 'https://evil.example/'),
  isStreamer: fc.boolean(),
});

export const registerBodies = bodies(validRegister as fc.Arbitrary<Record<string, unknown>>, [
  'platformId',
  'issueId',
  'providerId',
  'gameId',
  'playerId',
  'bonusType',
  'callAmount',
  'currency',
  'expireAt',
  'metaData',
  'metaData.spinAmount',
  'metaData.baseBetAmount',
]);
export const campaignBodies = bodies(validCampaign as fc.Arbitrary<Record<string, unknown>>, [
  'campaignId',
  'players',
  'providerId',
  'gameId',
  'bonusType',
  'callAmount',
  'currency',
  'expireAt',
  'metaData',
  'metaData.spinAmount',
  'metaData.baseBetAmount',
  'playerId',
  'platformId',
]);
export const cancelBodies = bodies(validCancel as fc.Arbitrary<Record<string, unknown>>, ['issueId', 'platformId']);
export const launchBodies = bodies(validLaunch as fc.Arbitrary<Record<string, unknown>>, [
  'playerId',
  'providerId',
  'gameId',
  'language',
  'returnUrl',
  'isStreamer',
  'currency',
]);
