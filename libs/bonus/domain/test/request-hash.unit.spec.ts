import { describe, expect, it } from '@jest/globals';
import { freeSpinMetaData, registerBonusCallRequest } from '@reelstream/contracts';
import { registrationRequestHash } from '../src/index.js';

const body = {
  platformId: 'p-1',
  providerId: 1,
  gameId: [101, 102],
  playerId: 'player_1',
  bonusType: 1,
  callAmount: 50,
  currency: 'EUR',
  expireAt: '2026-06-30 23:59:59',
  metaData: { spinAmount: 10, baseBetAmount: 0.2 },
};
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
    expect(hashOf({ metaData: { baseBetAmount: 0.2, spinAmount: 10 }, ...withoutMetaData, platformId })).toBe(
      reference,
    );
    expect(hashOf({ ...body, callAmount: 50.0 })).toBe(reference);
  });

  /**
   * One change per field of the request, nested fields by their path. The list of fields comes
   * from the schema itself (below), so a field added to the request without a row here fails.
   */
  const changes: Record<
    string,
    (reference: typeof body) => Record<string, unknown> | [Record<string, unknown>, Record<string, unknown>]
  > = {
    platformId: (reference) => ({ ...reference, platformId: 'p-2' }),
    issueId: ({ platformId: _platformId, ...reference }) => ({ ...reference, issueId: 'p-2' }),
    providerId: (reference) => ({ ...reference, providerId: 2 }),
    gameId: (reference) => ({ ...reference, gameId: [101] }),
    playerId: (reference) => ({ ...reference, playerId: 'player_2' }),
    bonusType: (reference) => ({ ...reference, bonusType: 2 }),
    callAmount: (reference) => ({ ...reference, callAmount: 50.5 }),
    currency: (reference) => ({ ...reference, currency: 'KRW' }),
    expireAt: (reference) => ({ ...reference, expireAt: '2026-06-30 23:59:58' }),
    // Only a Regular Bonus Call may go without it: compare two of those.
    metaData: (reference) => {
      const { metaData: _metaData, ...without } = reference;
      return [
        { ...reference, bonusType: 2 },
        { ...without, bonusType: 2 },
      ];
    },
    'metaData.spinAmount': (reference) => ({ ...reference, metaData: { ...reference.metaData, spinAmount: 11 } }),
    'metaData.baseBetAmount': (reference) => ({
      ...reference,
      metaData: { ...reference.metaData, baseBetAmount: 0.4 },
    }),
  };
  const schemaFields = [
    ...Object.keys(registerBonusCallRequest.in.shape),
    ...Object.keys(freeSpinMetaData.shape).map((key) => `metaData.${key}`),
  ];

  it('has a change for every field of the request schema, and none for a field it lacks', () => {
    expect(Object.keys(changes).sort()).toEqual([...schemaFields].sort());
  });

  it.each(schemaFields)('changes when %s changes', (field) => {
    const change = changes[field];
    if (!change) throw new Error(`no change for field ${field}`);
    const changed = change(body);
    const [from, to] = Array.isArray(changed) ? changed : [body, changed];
    expect(hashOf(to)).not.toBe(hashOf(from));
  });

  it('is 64 lowercase hex characters', () => {
    expect(hashOf(body)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is the digest the gateway stored before it moved here (node:crypto), so stored reservations still match', () => {
    expect(hashOf(body)).toBe('80a5798dcd7d3d5229dbab47ec8be870ca1943506660bc005f61dfcd441e9bbe');
  });

  // Computed by the hand-written SHA-256 before node:crypto replaced it; a stored requestHash must still match.
  it('keeps the digests of the hand-written SHA-256 it replaced (a Regular Bonus Call, a 100-game body over many blocks)', () => {
    const regular = {
      platformId: 'plaetz 1~!',
      providerId: 7,
      gameId: [3, 1, 2],
      playerId: 'P_9',
      bonusType: 'REGULAR',
      callAmount: 1234.56,
      currency: 'KRW',
      expireAt: '2027-01-01 00:00:00',
    };
    expect(hashOf(regular)).toBe('466dcd56f65047eb01091e1d663129a8d727e8033140a3b82e408442c8a998b4');
    const hundredGames = {
      ...body,
      platformId: 'p-many',
      gameId: Array.from({ length: 100 }, (_, index) => 1000 - index),
      metaData: { spinAmount: 100, baseBetAmount: 0.01 },
    };
    expect(hashOf(hundredGames)).toBe('aab551f267bf1722b8e16192e467d384eb53835dbc7e1253cc7743fc74344bce');
  });
});
