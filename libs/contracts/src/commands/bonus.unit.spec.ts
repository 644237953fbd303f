import { describe, expect, it } from '@jest/globals';
import { sampleBonusCall } from '@reelstream/testing';
import {
  bonusCommand,
  bonusCommandKey,
  bonusQuery,
  bonusRequestMessage,
  type RegisterBonusCallCommand,
} from './bonus.js';
import { BonusResultSchemas, errorReply, okReply, parseBonusReply } from './bonus-replies.js';
import type { BonusCallRecord } from './bonus-record.js';

const metadata = { commandId: 'c-1', correlationId: 'req-1', operatorId: 'demo', issuedAt: '2026-05-01T09:30:00.000Z' };

const register: RegisterBonusCallCommand = {
  type: 'RegisterBonusCall',
  version: 1,
  data: { ...sampleBonusCall(), requestHash: 'a'.repeat(64) },
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

describe('bonus.commands: versioned command envelopes with metadata (docs/architecture.md "Data")', () => {
  it('accepts a RegisterBonusCall in minor units', () => expect(bonusCommand.parse(register)).toEqual(register));

  it('accepts each other command', () => {
    for (const message of [
      { type: 'CancelBonusCall', version: 1, data: { operatorId: 'demo', issueId: 5 }, metadata },
      { type: 'CancelBonusCall', version: 1, data: { operatorId: 'demo', platformId: 'promo-0001' }, metadata },
      {
        type: 'StartFreeSpin',
        version: 1,
        data: { operatorId: 'demo', playerId: 'player_42', issueId: 5, gameId: 1001, roundId: 77 },
        metadata,
      },
      {
        type: 'SettleFreeSpin',
        version: 1,
        data: { operatorId: 'demo', playerId: 'player_42', issueId: 5, roundId: 77, winMinor: 0 },
        metadata,
      },
      {
        type: 'ExpireBonusCall',
        version: 1,
        data: { operatorId: 'demo', playerId: 'player_42', issueId: 5 },
        metadata: {
          ...metadata,
          causationId: 'timer-5',
          traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        },
      },
    ]) {
      expect(bonusCommand.safeParse(message).error?.issues ?? []).toEqual([]);
    }
  });

  it('refuses money as a decimal: amounts are integer minor units', () => {
    expect(bonusCommand.safeParse({ ...register, data: { ...register.data, callAmountMinor: 50.5 } }).success).toBe(
      false,
    );
    expect(bonusCommand.safeParse({ ...register, data: { ...register.data, callAmountMinor: 0 } }).success).toBe(false);
  });

  it('requires spinAmount and baseBetAmountMinor for bonusType 1, not for 2', () => {
    const { spinAmount: _spins, baseBetAmountMinor: _bet, ...regular } = register.data;
    expect(bonusCommand.safeParse({ ...register, data: regular }).success).toBe(false);
    expect(bonusCommand.safeParse({ ...register, data: { ...regular, bonusType: 2 } }).success).toBe(true);
  });

  it('requires expireAt as an ISO UTC instant, not the API wall-clock text', () => {
    expect(
      bonusCommand.safeParse({ ...register, data: { ...register.data, expireAt: '2026-06-30 23:59:59' } }).success,
    ).toBe(false);
  });

  it('refuses a message whose metadata names another operator than its data (decisions.md D18)', () => {
    const result = bonusCommand.safeParse({ ...register, metadata: { ...metadata, operatorId: 'other' } });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([
      'metadata.operatorId must equal data.operatorId',
    ]);
  });

  it('refuses an unknown type, another version, and missing metadata', () => {
    expect(bonusRequestMessage.safeParse({ ...register, type: 'RegisterBonus' }).success).toBe(false);
    expect(bonusCommand.safeParse({ ...register, version: 2 }).success).toBe(false);
    expect(bonusCommand.safeParse({ ...register, metadata: undefined }).success).toBe(false);
    expect(bonusCommand.safeParse({ ...register, metadata: { ...metadata, issuedAt: 'yesterday' } }).success).toBe(
      false,
    );
  });

  it('CancelBonusCall and GetBonusCall take exactly one of issueId and platformId (D14)', () => {
    expect(
      bonusCommand.safeParse({
        type: 'CancelBonusCall',
        version: 1,
        data: { operatorId: 'demo', issueId: 5, platformId: 'p' },
        metadata,
      }).success,
    ).toBe(false);
    expect(
      bonusQuery.safeParse({ type: 'GetBonusCall', version: 1, data: { operatorId: 'demo' }, metadata }).success,
    ).toBe(false);
    expect(
      bonusQuery.safeParse({
        type: 'GetBonusCall',
        version: 1,
        data: { operatorId: 'demo', platformId: 'p' },
        metadata,
      }).success,
    ).toBe(true);
  });

  it('queries: ListBonusCalls limit 1–100 with optional filters; GetActiveBonus by player', () => {
    const list = {
      type: 'ListBonusCalls',
      version: 1,
      data: { operatorId: 'demo', status: 'active', limit: 100 },
      metadata,
    };
    expect(bonusQuery.safeParse(list).success).toBe(true);
    expect(bonusQuery.safeParse({ ...list, data: { ...list.data, limit: 101 } }).success).toBe(false);
    expect(
      bonusQuery.safeParse({
        type: 'GetActiveBonus',
        version: 1,
        data: { operatorId: 'demo', playerId: 'player_42' },
        metadata,
      }).success,
    ).toBe(true);
    expect(bonusCommand.safeParse(list).success).toBe(false);
    expect(bonusRequestMessage.safeParse(list).success).toBe(true);
  });
});

describe('bonus.commands key: the player, or what the message names (docs/architecture.md "Data")', () => {
  it('keys by operator and playerId when the message has one: a playerId belongs to its operator', () => {
    expect(bonusCommandKey(register)).toBe('demo:player_42');
    const other = { ...register, data: { ...register.data, operatorId: 'casino_b' } };
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
  it('parses a register result {issueId, replayed}', () => {
    expect(parseBonusReply('RegisterBonusCall', okReply({ issueId: 5, replayed: true }))).toEqual({
      ok: true,
      result: { issueId: 5, replayed: true },
    });
    expect(() => parseBonusReply('RegisterBonusCall', okReply({ issueId: 5 }))).toThrow();
  });

  it('parses an error with a catalogue code, and refuses a code outside it', () => {
    expect(parseBonusReply('RegisterBonusCall', errorReply('ACTIVE_BONUS_EXISTS', 'busy'))).toEqual({
      ok: false,
      error: { code: 'ACTIVE_BONUS_EXISTS', message: 'busy' },
    });
    expect(() => parseBonusReply('CancelBonusCall', { ok: false, error: { code: 'NOPE', message: 'x' } })).toThrow();
  });

  it('parses read-model results in minor units', () => {
    expect(parseBonusReply('GetActiveBonus', okReply({ bonus: record }))).toEqual({
      ok: true,
      result: { bonus: record },
    });
    expect(parseBonusReply('GetActiveBonus', okReply({ bonus: null }))).toEqual({ ok: true, result: { bonus: null } });
    expect(parseBonusReply('ListBonusCalls', okReply({ items: [record], nextCursor: 'abc' })).ok).toBe(true);
    expect(() => parseBonusReply('GetBonusCall', okReply({ ...record, status: 'cancelled' }))).toThrow();
  });

  it('parses free-spin results', () => {
    const started = {
      issueId: 5,
      roundId: 77,
      gameId: 1001,
      spinNumber: 1,
      currency: 'EUR',
      baseBetAmountMinor: 20,
      winCapLeftMinor: 5000,
      replayed: false,
    };
    expect(BonusResultSchemas.StartFreeSpin.parse(started)).toEqual(started);
    const settled = {
      issueId: 5,
      roundId: 77,
      spinNumber: 1,
      winMinor: 40,
      totalWinMinor: 40,
      spinsLeft: 9,
      transactionId: 78,
      completed: false,
      replayed: false,
    };
    expect(BonusResultSchemas.SettleFreeSpin.parse(settled)).toEqual(settled);
    expect(BonusResultSchemas.SettleFreeSpin.safeParse({ ...settled, winMinor: 0.4 }).success).toBe(false);
  });
});
