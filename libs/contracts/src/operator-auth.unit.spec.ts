import { describe, expect, it } from '@jest/globals';
import { authenticateOperator, bearerTokenOf, MAX_BEARER_TOKEN_LENGTH, operatorTokensOf } from './operator-auth.js';
import { apiTokenDigest } from './operators.js';

const operators = [
  { id: 'a', apiTokenSha256: apiTokenDigest('token-of-operator-a') },
  { id: 'b', apiTokenSha256: apiTokenDigest('token-of-operator-b') },
];
const tokens = operatorTokensOf(operators);
const answerOf = (authorization: string | undefined) => {
  const answer = authenticateOperator(authorization, tokens);
  return 'id' in answer ? answer.id : answer;
};
const UNAUTHORIZED = { type: 'Refusal', code: 'UNAUTHORIZED', retriable: false };

describe('operator authentication (spec §5)', () => {
  it('names the operator whose token the bearer token is', () => {
    expect(answerOf('Bearer token-of-operator-a')).toBe('a');
    expect(answerOf('Bearer token-of-operator-b')).toBe('b');
  });

  it('reads the scheme case-insensitively, with one or more spaces before the token and trailing spaces', () => {
    expect(answerOf('bearer token-of-operator-a')).toBe('a');
    expect(answerOf('BEARER   token-of-operator-b  ')).toBe('b');
  });

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['another scheme', 'Basic token-of-operator-a'],
    ['no scheme', 'token-of-operator-a'],
    ['two tokens', 'Bearer token-of-operator-a token-of-operator-b'],
    ['an unknown token', 'Bearer token-of-operator-c'],
    ['a prefix of a token', 'Bearer token-of-operator-'],
    ['the digest instead of the token', `Bearer ${apiTokenDigest('token-of-operator-a')}`],
    ['a token longer than any can be', `Bearer ${'x'.repeat(MAX_BEARER_TOKEN_LENGTH + 1)}`],
  ])('refuses %s with the one UNAUTHORIZED refusal', (_case, authorization) => {
    expect(answerOf(authorization)).toMatchObject(UNAUTHORIZED);
  });

  it('takes a token up to the length limit and not one character more', () => {
    const long = 'y'.repeat(MAX_BEARER_TOKEN_LENGTH);
    expect(bearerTokenOf(`Bearer ${long}`)).toBe(long);
    expect(bearerTokenOf(`Bearer ${long}y`)).toBeUndefined();
    const withLong = operatorTokensOf([...operators, { id: 'long', apiTokenSha256: apiTokenDigest(long) }]);
    expect(authenticateOperator(`Bearer ${long}`, withLong)).toMatchObject({ id: 'long' });
  });

  it('keeps the digests as 32 bytes, one per operator, in their order', () => {
    expect(tokens.map(({ digest, operator }) => [digest.length, operator.id])).toEqual([
      [32, 'a'],
      [32, 'b'],
    ]);
  });
});
