import { describe, expect, it } from '@jest/globals';
import { sampleBonusCall } from '@reelstream/testing';
import { bonusCommandKey, bonusRequestMessage, registerBonusCallData, type CancelBonusCallCommand } from './bonus.js';
import { errorReply, okReply, parseBonusReply } from './bonus-replies.js';
import type { BonusCallRecord } from './bonus-record.js';

const metadata = { commandId: 'c-1', correlationId: 'req-1', operatorId: 'demo', issuedAt: '2026-05-01T09:30:00.000Z' };

const registration = { ...sampleBonusCall(), requestHash: 'a'.repeat(64) };

const cancel: CancelBonusCallCommand = {
  type: 'CancelBonusCall',
  version: 1,
  data: { operatorId: 'demo', issueId: 5 },
  metadata,
};

const record: BonusCallRecord = {
  issueId: 5,
  ...sampleBonusCall({ gameIds: [1001] }),
  spinsUsed: 0,
  spinsLeft: 10,
  totalWinMinor: 0,
  winCapLeftMinor: 5000,
  openRoundId: null,
  status: 'active',
  createdAt: '2026-05-01T09:30:00.000Z',
};

describe('registration data, as the gateway parses it before it decides it in-process', () => {
  it('accepts a registration in minor units', () =>
    expect(registerBonusCallData.parse(registration)).toEqual(registration));

  it('refuses money as a decimal: amounts are integer minor units', () => {
    expect(registerBonusCallData.safeParse({ ...registration, callAmountMinor: 50.5 }).success).toBe(false);
    expect(registerBonusCallData.safeParse({ ...registration, callAmountMinor: 0 }).success).toBe(false);
  });

  it('requires spinAmount and baseBetAmountMinor for bonusType 1, not for 2', () => {
    const { spinAmount: _spins, baseBetAmountMinor: _bet, ...regular } = registration;
    expect(registerBonusCallData.safeParse(regular).success).toBe(false);
    expect(registerBonusCallData.safeParse({ ...regular, bonusType: 2 }).success).toBe(true);
  });

  it('requires expireAt as an ISO UTC instant, not the API wall-clock text', () => {
    expect(registerBonusCallData.safeParse({ ...registration, expireAt: '2026-06-30 23:59:59' }).success).toBe(false);
  });
});

describe('bonus.commands: versioned envelopes with metadata (docs/architecture.md "Data")', () => {
  it('accepts a cancel, a status query and a list, each with its metadata', () => {
    for (const message of [
      cancel,
      { type: 'CancelBonusCall', version: 1, data: { operatorId: 'demo', platformId: 'promo-0001' }, metadata },
      {
        type: 'GetBonusCall',
        version: 1,
        data: { operatorId: 'demo', issueId: 5 },
        metadata: {
          ...metadata,
          causationId: 'request-5',
          traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        },
      },
      { type: 'ListBonusCalls', version: 1, data: { operatorId: 'demo', playerId: 'player_42', limit: 10 }, metadata },
    ]) {
      expect(bonusRequestMessage.safeParse(message).error?.issues ?? []).toEqual([]);
    }
  });

  it('refuses a message whose metadata names another operator than its data (decisions.md D18)', () => {
    const result = bonusRequestMessage.safeParse({ ...cancel, metadata: { ...metadata, operatorId: 'other' } });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'metadata.operatorId must equal data.operatorId',
    ]);
  });

  it('refuses an unknown type, another version, and missing metadata', () => {
    expect(bonusRequestMessage.safeParse({ ...cancel, type: 'CancelBonus' }).success).toBe(false);
    expect(bonusRequestMessage.safeParse({ ...cancel, version: 2 }).success).toBe(false);
    expect(bonusRequestMessage.safeParse({ ...cancel, metadata: undefined }).success).toBe(false);
    expect(bonusRequestMessage.safeParse({ ...cancel, metadata: { ...metadata, issuedAt: 'yesterday' } }).success).toBe(
      false,
    );
  });

  it('carries no registration, free spin or expiry: those are decided in-process (ADR 0011, ADR 0006)', () => {
    for (const type of ['RegisterBonusCall', 'StartFreeSpin', 'SettleFreeSpin', 'ExpireBonusCall', 'GetActiveBonus'])
      expect(bonusRequestMessage.safeParse({ ...cancel, type }).success).toBe(false);
  });

  it('CancelBonusCall and GetBonusCall take exactly one of issueId and platformId (D14)', () => {
    expect(
      bonusRequestMessage.safeParse({
        type: 'CancelBonusCall',
        version: 1,
        data: { operatorId: 'demo', issueId: 5, platformId: 'p' },
        metadata,
      }).success,
    ).toBe(false);
    expect(
      bonusRequestMessage.safeParse({ type: 'GetBonusCall', version: 1, data: { operatorId: 'demo' }, metadata })
        .success,
    ).toBe(false);
    expect(
      bonusRequestMessage.safeParse({
        type: 'GetBonusCall',
        version: 1,
        data: { operatorId: 'demo', platformId: 'p' },
        metadata,
      }).success,
    ).toBe(true);
  });

  it('ListBonusCalls: limit 1–100 with optional filters', () => {
    const list = {
      type: 'ListBonusCalls',
      version: 1,
      data: { operatorId: 'demo', status: 'active', limit: 100 },
      metadata,
    };
    expect(bonusRequestMessage.safeParse(list).success).toBe(true);
    expect(bonusRequestMessage.safeParse({ ...list, data: { ...list.data, limit: 101 } }).success).toBe(false);
  });
});

describe('bonus.commands key: the player, or what the message names (docs/architecture.md "Data")', () => {
  it('keys by operator and playerId when the message has one: a playerId belongs to its operator', () => {
    const list = {
      type: 'ListBonusCalls' as const,
      version: 1 as const,
      data: { operatorId: 'demo', playerId: 'player_42', limit: 5 },
      metadata,
    };
    expect(bonusCommandKey(list)).toBe('demo:player_42');
    const other = { ...list, data: { ...list.data, operatorId: 'casino_b' } };
    expect(bonusCommandKey(other)).toBe('casino_b:player_42');
  });
  it('keys a cancel by issueId or platformId under its operator', () => {
    expect(
      bonusCommandKey({ type: 'CancelBonusCall', version: 1, data: { operatorId: 'demo', issueId: 5 }, metadata }),
    ).toBe('demo:issue:5');
    expect(
      bonusCommandKey({ type: 'GetBonusCall', version: 1, data: { operatorId: 'demo', platformId: 'p-1' }, metadata }),
    ).toBe('demo:platform:p-1');
    expect(
      bonusCommandKey({ type: 'ListBonusCalls', version: 1, data: { operatorId: 'demo', limit: 5 }, metadata }),
    ).toBe('demo');
  });
});

describe('bonus.replies: {ok: true, result} | {ok: false, error} per request type', () => {
  it('parses a cancel result {issueId, alreadyCanceled}', () => {
    expect(parseBonusReply('CancelBonusCall', okReply({ issueId: 5, alreadyCanceled: true }))).toEqual({
      ok: true,
      result: { issueId: 5, alreadyCanceled: true },
    });
    expect(() => parseBonusReply('CancelBonusCall', okReply({ issueId: 5 }))).toThrow();
  });

  it('parses an error with a catalogue code, and refuses a code outside it', () => {
    expect(parseBonusReply('CancelBonusCall', errorReply('BONUS_EXPIRED', 'expired'))).toEqual({
      ok: false,
      error: { code: 'BONUS_EXPIRED', message: 'expired' },
    });
    expect(() => parseBonusReply('CancelBonusCall', { ok: false, error: { code: 'NOPE', message: 'x' } })).toThrow();
  });

  it('parses read-model results in minor units', () => {
    expect(parseBonusReply('GetBonusCall', okReply(record))).toEqual({ ok: true, result: record });
    expect(parseBonusReply('ListBonusCalls', okReply({ items: [record], nextCursor: 'abc' })).ok).toBe(true);
    expect(() => parseBonusReply('GetBonusCall', okReply({ ...record, status: 'cancelled' }))).toThrow();
  });
});
