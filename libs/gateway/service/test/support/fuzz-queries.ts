/**
 * Generated paths and query strings for the reconciliation API's reads and its re-drive (issue
 * 16): ids valid, foreign, unknown, out of range or not numbers at all; query parameters valid,
 * misspelt, repeated, badly encoded; cursors real, forged and broken. Each is the path and query
 * as sent on the wire (already percent-encoded, or deliberately not).
 */
import fc from 'fast-check';

const junk = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    'null',
    'undefined',
    '[]',
    '{}',
    '%',
    '%zz',
    '..',
    '%2e%2e',
  ),
);

function idText(known: readonly number[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...known.map(String)),
    fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }).map(String),
    fc.bigInt({ min: BigInt(Number.MAX_SAFE_INTEGER), max: 10n ** 30n }).map(String),
    fc.integer({ min: 0, max: 999 }).map((n) => `00${n}`),
    junk,
  );
}

/** A path segment: sometimes percent-encoded, sometimes raw ASCII (a raw `%` is a broken encoding; node sends nothing else raw). */
function segment(text: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .tuple(text, fc.boolean())
    .map(([value, encode]) =>
      encode || value === '' ? encodeURIComponent(value) : value.replace(/[^\x21-\x7e]|[/?#]/gu, encodeURIComponent),
    );
}

export function roundPaths(knownRoundIds: readonly number[]): fc.Arbitrary<string> {
  return segment(idText(knownRoundIds)).map((id) => `/v1/rounds/${id}`);
}

export function redrivePaths(knownTransactionIds: readonly number[]): fc.Arbitrary<string> {
  return segment(idText(knownTransactionIds)).map((id) => `/v1/wallet/dead-letters/${id}/redrive`);
}

const instant = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true })
  .map((date) => date.toISOString());

function cursor(realCursors: readonly string[]): fc.Arbitrary<string> {
  const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');
  return fc.oneof(
    fc.constantFrom(...realCursors),
    fc.bigInt({ min: -10n, max: 10n ** 25n }).map((n) => base64(String(n))),
    fc.string({ maxLength: 30 }).map(base64),
    junk,
  );
}

export function transactionQueries(
  knownPlayers: readonly string[],
  realCursors: readonly string[],
): fc.Arbitrary<string> {
  const value: Record<string, fc.Arbitrary<string>> = {
    from: fc.oneof(instant, junk),
    to: fc.oneof(instant, junk),
    playerId: fc.oneof(fc.constantFrom(...knownPlayers), fc.stringMatching(/^[A-Za-z0-9_]{1,50}$/), junk),
    status: fc.oneof(fc.constantFrom('pending', 'succeeded', 'failed', 'dead_lettered'), junk),
    limit: fc.oneof(fc.integer({ min: -5, max: 1_000 }).map(String), junk),
    cursor: cursor(realCursors),
    player: junk,
    offset: junk,
  };
  const pair = fc
    .constantFrom(...Object.keys(value))
    .chain((key) => fc.tuple(fc.constant(key), value[key] as fc.Arbitrary<string>, fc.boolean()));
  return fc.array(pair, { maxLength: 6 }).map((pairs) => {
    const query = pairs
      .map(
        ([key, text, encode]) =>
          `${key}=${encode ? encodeURIComponent(text) : text.replace(/[^\x21-\x7e]|[#&]/gu, encodeURIComponent)}`,
      )
      .join('&');
    return `/v1/transactions${query === '' ? '' : `?${query}`}`;
  });
}

/** `GET /v1/bonus-call/campaigns/{campaignId}` with ids known, foreign, unknown and junk, and junk paging. */
export function campaignPaths(knownCampaignIds: readonly string[]): fc.Arbitrary<string> {
  const id = fc.oneof(
    fc.constantFrom(...knownCampaignIds),
    fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,15}$/),
    junk,
  );
  const query = fc.option(
    fc
      .array(
        fc.tuple(
          fc.constantFrom('limit', 'cursor', 'offset'),
          fc.oneof(fc.integer({ min: -5, max: 2_000 }).map(String), fc.constantFrom('0', '1', '99999', '100000'), junk),
        ),
        { maxLength: 3 },
      )
      .map((pairs) => pairs.map(([key, text]) => `${key}=${encodeURIComponent(text)}`).join('&')),
  );
  return fc
    .tuple(segment(id), query)
    .map(([campaign, search]) =>
      search === null || search === ''
        ? `/v1/bonus-call/campaigns/${campaign}`
        : `/v1/bonus-call/campaigns/${campaign}?${search}`,
    );
}

/** `GET /v1/wallet/dead-letters` (or `path`, the webhooks' list) with generated `limit` and `cursor` (real ones, past the end, junk) and stray parameters. */
export function deadLetterQueries(
  realCursors: readonly string[],
  path = '/v1/wallet/dead-letters',
): fc.Arbitrary<string> {
  const value: Record<string, fc.Arbitrary<string>> = {
    limit: fc.oneof(fc.integer({ min: -5, max: 1_000 }).map(String), junk),
    cursor: cursor(realCursors),
    playerId: junk,
    offset: junk,
  };
  const pair = fc
    .constantFrom(...Object.keys(value))
    .chain((key) => fc.tuple(fc.constant(key), value[key] as fc.Arbitrary<string>, fc.boolean()));
  return fc.array(pair, { maxLength: 4 }).map((pairs) => {
    const query = pairs
      .map(
        ([key, text, encode]) =>
          `${key}=${encode ? encodeURIComponent(text) : text.replace(/[^\x21-\x7e]|[#&]/gu, encodeURIComponent)}`,
      )
      .join('&');
    return `${path}${query === '' ? '' : `?${query}`}`;
  });
}

/** `POST /v1/webhooks/dead-letters/{eventId}/redrive`: event ids known (the caller's, another operator's), well-formed unknown ones, near misses, junk. */
export function webhookRedrivePaths(knownEventIds: readonly string[]): fc.Arbitrary<string> {
  const eventId = fc.oneof(
    fc.constantFrom(...knownEventIds),
    fc.uuid().map((uuid) => `bw-${uuid}`),
    fc.uuid().map((uuid) => `bw-${uuid.toUpperCase()}`),
    fc.uuid(),
    fc.uuid().map((uuid) => `bw-${uuid}x`),
    junk,
  );
  return segment(eventId).map((id) => `/v1/webhooks/dead-letters/${id}/redrive`);
}
