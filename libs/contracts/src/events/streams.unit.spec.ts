import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  bonusRequestStream,
  encodeStreamComponent,
  parseStreamId,
  playerBonusStream,
  roundStream,
  sessionKeyStream,
  sessionStream,
  streamEventParser,
  streamPrefix,
  UnexpectedStreamEventError,
  walletTxStream,
} from './streams.js';
import { sessionKeyOf } from './session.js';

describe('stream ids: one builder each, unambiguous components (docs/architecture.md "Data")', () => {
  it('builds the documented names', () => {
    expect(playerBonusStream('demo', 'player_42')).toBe('playerBonus-demo-player_42');
    expect(bonusRequestStream('demo', 'promo.1')).toBe('bonusRequest-demo-promo.1');
    expect(sessionStream('abc_DEF')).toBe('session-abc_DEF');
    expect(roundStream(201)).toBe('round-201');
    expect(walletTxStream(101)).toBe('walletTx-101');
    expect(streamPrefix('playerBonus')).toBe('playerBonus-');
  });

  it('escapes "-" so operator "a-b" with platformId "c" differs from operator "a" with platformId "b-c"', () => {
    expect(bonusRequestStream('a-b', 'c')).toBe('bonusRequest-a%2Db-c');
    expect(bonusRequestStream('a', 'b-c')).toBe('bonusRequest-a-b%2Dc');
    expect(bonusRequestStream('a-b', 'c')).not.toBe(bonusRequestStream('a', 'b-c'));
  });

  it('escapes space, %, / and non-ASCII as UTF-8 %XX', () => {
    expect(encodeStreamComponent('promo 50%/€')).toBe('promo%2050%25%2F%E2%82%AC');
    expect(() => encodeStreamComponent('')).toThrow(/cannot be empty/);
  });

  it('refuses ids that are not positive safe integers', () => {
    expect(() => roundStream(0)).toThrow(/roundId/);
    expect(() => walletTxStream(1.5)).toThrow(/transactionId/);
  });

  it('names a session by its key under a name no launch token reaches (the "." is in no token)', () => {
    const key = sessionKeyOf('q3Yx0mVb7m2c1kTzV3dH0rFfQm8uJ6nE9sWc4aLpB2g');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(sessionKeyStream(key)).toBe(`session-sha256.${key}`);
    expect(sessionStream(key)).not.toBe(sessionKeyStream(key));
    expect(parseStreamId(sessionKeyStream(key))).toEqual({ category: 'session', key });
    expect(parseStreamId(sessionStream('tok_en-1'))).toEqual({ category: 'session', token: 'tok_en-1' });
  });

  it('parses what it builds, and nothing else', () => {
    expect(parseStreamId(playerBonusStream('acme-casino', 'p1'))).toEqual({
      category: 'playerBonus',
      operatorId: 'acme-casino',
      playerId: 'p1',
    });
    expect(parseStreamId('round-201')).toEqual({ category: 'round', roundId: 201 });
    expect(parseStreamId('walletTx-101')).toEqual({ category: 'walletTx', transactionId: 101 });
    for (const foreign of [
      'playerBonus-a-b-c',
      'round-0',
      'round-01',
      'walletTx-abc',
      'session-',
      'playerBonus-a%2-b',
      'playerBonus-a b-c',
      'other-1',
      '$all',
    ]) {
      expect(parseStreamId(foreign)).toBeUndefined();
    }
  });

  it('round-trips any operator id and platform id (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 64, unit: 'grapheme' }),
        fc.string({ minLength: 1, maxLength: 64, unit: 'grapheme' }),
        (operatorId, platformId) => {
          const streamId = bonusRequestStream(operatorId, platformId);
          expect(streamId.split('-')).toHaveLength(3);
          expect(parseStreamId(streamId)).toEqual({ category: 'bonusRequest', operatorId, platformId });
        },
      ),
    );
  });
});

describe('streamEventParser: the parser of a category, made from its event types', () => {
  const accepted = {
    streamId: 'bonusRequest-demo-promo.1',
    type: 'BonusRequestAccepted',
    data: { issueId: 5, requestHash: 'f'.repeat(64), playerId: 'player_42', acceptedAt: '2026-11-30T08:00:00.000Z' },
    metadata: { schemaVersion: 1 },
  };

  it('reads an event of the category, validated', () => {
    expect(streamEventParser('bonusRequest')(accepted)).toEqual({ type: 'BonusRequestAccepted', data: accepted.data });
    expect(() =>
      streamEventParser('bonusRequest')({ ...accepted, data: { ...accepted.data, requestHash: 'x' } }),
    ).toThrow();
  });

  it('refuses an event of another category as not readable, naming the stream and the type', () => {
    const read = () => streamEventParser('playerBonus')({ ...accepted, streamId: 'playerBonus-demo-p1' });
    expect(read).toThrow(UnexpectedStreamEventError);
    expect(read).toThrow(
      'stream playerBonus-demo-p1 holds a BonusRequestAccepted event, which its category does not hold',
    );
    const thrown = (() => {
      try {
        return read();
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toMatchObject({ code: 'EVENT_NOT_READABLE', retriable: false, type: 'BonusRequestAccepted' });
  });
});
