import { describe, expect, it } from '@jest/globals';
import { registerBonusCallRequest } from '@reelstream/contracts';
import { registrationRequestHash } from './request-hash.js';

const body = { platformId: 'p-1', providerId: 1, gameId: [101, 102], playerId: 'player_1', bonusType: 1, callAmount: 50, expireAt: '2026-06-30 23:59:59', metaData: { spinAmount: 10, baseBetAmount: 0.2 } };
const hashOf = (input: Record<string, unknown>) => registrationRequestHash(registerBonusCallRequest.parse(input));

describe('registrationRequestHash (D17)', () => {
  it('is the same for the same registration however it is written', () => {
    const { platformId, ...rest } = body;
    const reference = hashOf(body);
    expect(hashOf({ ...rest, issueId: platformId })).toBe(reference);
    expect(hashOf({ ...body, platformId, issueId: platformId })).toBe(reference);
    expect(hashOf({ ...body, bonusType: 'FREESPIN' })).toBe(reference);
    expect(hashOf({ ...body, gameId: [102, 101] })).toBe(reference);
    const { metaData: _metaData, ...withoutMetaData } = rest;
    expect(hashOf({ metaData: { baseBetAmount: 0.2, spinAmount: 10 }, ...withoutMetaData, platformId })).toBe(reference);
    expect(hashOf({ ...body, callAmount: 50.0 })).toBe(reference);
  });

  it.each([
    ['callAmount', { callAmount: 50.5 }],
    ['playerId', { playerId: 'player_2' }],
    ['gameId', { gameId: [101] }],
    ['expireAt', { expireAt: '2026-06-30 23:59:58' }],
    ['spinAmount', { metaData: { spinAmount: 11, baseBetAmount: 0.2 } }],
    ['platformId', { platformId: 'p-2' }],
  ])('changes when %s changes', (_field, change) => {
    expect(hashOf({ ...body, ...change })).not.toBe(hashOf(body));
  });

  it('is 64 lowercase hex characters', () => {
    expect(hashOf(body)).toMatch(/^[0-9a-f]{64}$/);
  });
});
