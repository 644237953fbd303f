import { describe, expect, it } from '@jest/globals';
import { gameSessionStarted, sampleBetRequest, sampleBonusCall, SESSION_TOKEN } from '@reelstream/testing';
import { playerBonusEvent } from './bonus.js';
import { roundEvent } from './round.js';
import { sessionEvent } from './session.js';
import {
  currentSchemaVersion,
  EventRegistry,
  eventToAppend,
  EventTypes,
  InvalidEventDataError,
  parseEvent,
  parseStoredEvent,
  UnknownEventTypeError,
  UnsupportedSchemaVersionError,
  type DomainEvent,
} from './upcasting.js';
import { walletTxEvent } from './wallet.js';
import { webhookLetterEvent } from './webhook-letter.js';

const at = '2026-05-01T10:00:00.000Z';
const registered = { issueId: 5, ...sampleBonusCall(), registeredAt: at };
const betRequest = sampleBetRequest({ requestedAt: at });
const freeRound = {
  roundId: 201,
  sessionToken: SESSION_TOKEN,
  operatorId: 'demo',
  playerId: 'player_42',
  providerId: 7,
  gameId: 1001,
  kind: 'free',
  currency: 'EUR',
  betMinor: 20,
  bonusId: 5,
  rtpProfile: 'standard',
  startedAt: at,
};
const { isBonusBusy: _busy, amountMinor: _stake, ...winCommon } = betRequest;
const winRequest = {
  ...winCommon,
  command: 'win',
  amountMinor: 40,
  isRoundFinished: true,
  source: { stream: 'round-201', revision: 1, eventId: 'e3a2f1c0-0000-8000-8000-000000000001' },
};

/** One valid example of every event type (each must parse), and a rule-breaking variant of it. */
const examples: Record<DomainEvent['type'], { valid: object; invalid: object; rule: string }> = {
  BonusCallRegistered: {
    valid: registered,
    invalid: { ...registered, spinAmount: null },
    rule: 'a Free Spin Bonus has its spin fields',
  },
  FreeSpinStarted: {
    valid: {
      issueId: 5,
      roundId: 77,
      gameId: 1001,
      spinNumber: 1,
      baseBetAmountMinor: 20,
      winCapLeftMinor: 5000,
      startedAt: at,
    },
    invalid: {
      issueId: 5,
      roundId: 77,
      gameId: 1001,
      spinNumber: 0,
      baseBetAmountMinor: 20,
      winCapLeftMinor: 5000,
      startedAt: at,
    },
    rule: 'spins are numbered from 1',
  },
  FreeSpinSettled: {
    valid: {
      issueId: 5,
      roundId: 77,
      gameId: 1001,
      spinNumber: 1,
      rawWinMinor: 9000,
      winMinor: 5000,
      totalWinMinor: 5000,
      spinsLeft: 9,
      settledAt: at,
      transactionId: 301,
    },
    invalid: {
      issueId: 5,
      roundId: 77,
      gameId: 1001,
      spinNumber: 1,
      rawWinMinor: 100,
      winMinor: 200,
      totalWinMinor: 200,
      spinsLeft: 9,
      settledAt: at,
      transactionId: 301,
    },
    rule: 'the credited win never exceeds the raw win',
  },
  RegularBonusSpinSettled: {
    valid: {
      issueId: 5,
      roundId: 78,
      gameId: 1001,
      spinNumber: 2,
      betMinor: 100,
      reelWinMinor: 400,
      topUpMinor: 3,
      winMinor: 403,
      totalWinMinor: 1000,
      outcome: { modelId: 'lotus-garden', draws: [1, 2, 3] },
      settledAt: at,
    },
    invalid: {
      issueId: 5,
      roundId: 78,
      gameId: 1001,
      spinNumber: 2,
      betMinor: 100,
      reelWinMinor: 400,
      topUpMinor: 3,
      winMinor: 400,
      totalWinMinor: 1000,
      outcome: { modelId: 'lotus-garden', draws: [1, 2, 3] },
      settledAt: at,
    },
    rule: 'the win is the reels’ win plus the top-up',
  },
  BonusCallCompleted: {
    valid: { issueId: 5, reason: 'win_cap_reached', totalWinMinor: 5000, completedAt: at },
    invalid: { issueId: 5, reason: 'done', totalWinMinor: 5000, completedAt: at },
    rule: 'reason is spins_used, win_cap_reached or target_reached',
  },
  BonusCallExpired: {
    valid: { issueId: 5, spinsForfeited: 3, totalWinMinor: 120, expiredAt: at },
    invalid: { issueId: 5, spinsForfeited: -1, totalWinMinor: 120, expiredAt: at },
    rule: 'forfeited spins are not negative',
  },
  BonusCallCanceled: {
    valid: { issueId: 5, spinsForfeited: 10, totalWinMinor: 0, canceledAt: at },
    invalid: { issueId: 5, spinsForfeited: 10, totalWinMinor: 0, canceledAt: '2026-05-01 10:00:00' },
    rule: 'times are ISO UTC instants',
  },
  BonusRequestAccepted: {
    valid: { issueId: 5, requestHash: 'f'.repeat(64), playerId: 'player_42', acceptedAt: at },
    invalid: { issueId: 5, requestHash: 'xyz', playerId: 'player_42', acceptedAt: at },
    rule: 'requestHash is a SHA-256 hex digest',
  },
  GameSessionStarted: {
    valid: gameSessionStarted(),
    invalid: gameSessionStarted({ token: 'short', expiresAt: at }),
    rule: 'a token has at least 22 URL-safe characters',
  },
  GameSessionEnded: {
    valid: { token: SESSION_TOKEN, reason: 'expired', endedAt: at },
    invalid: { token: SESSION_TOKEN, reason: '', endedAt: at },
    rule: 'the end has a reason',
  },
  RoundStarted: {
    valid: freeRound,
    invalid: { ...freeRound, bonusId: 0 },
    rule: 'a free round belongs to a bonus call',
  },
  RoundSettled: {
    valid: {
      roundId: 201,
      outcome: { draws: [0.12, 0.9], stops: [[1, 2, 3]], lines: [] },
      winMinor: 40,
      settledAt: at,
    },
    invalid: { roundId: 201, outcome: { draws: [0.12] }, winMinor: -40, settledAt: at },
    rule: 'a win is not negative',
  },
  RoundCanceled: {
    valid: { roundId: 201, reason: 'bet_rejected:ERR_NOT_ENOUGH_MONEY', canceledAt: at },
    invalid: { roundId: 0, reason: 'x', canceledAt: at },
    rule: 'round ids are positive',
  },
  WalletRequested: {
    valid: { transactionId: 101, operatorId: 'demo', command: 'bet', request: betRequest, requestedAt: at },
    invalid: { transactionId: 102, operatorId: 'demo', command: 'bet', request: betRequest, requestedAt: at },
    rule: 'the transactionId is the request’s',
  },
  WalletAttempted: { valid: { attempt: 1, at }, invalid: { attempt: 0, at }, rule: 'attempts count from 1' },
  WalletSucceeded: {
    valid: { statusCode: 'OK', balanceMinor: -500, at },
    invalid: { statusCode: 'ERR_UNKNOWN', balanceMinor: 1, at },
    rule: 'success is OK',
  },
  WalletFailed: {
    valid: { error: 'no reply within 4000 ms', attempt: 3, final: true, command: 'win', at },
    invalid: { attempt: 1, final: false, at },
    rule: 'a failure says why',
  },
  CancelRequested: {
    valid: { cancelTransactionId: 102, refTransactionId: 101, at },
    invalid: { cancelTransactionId: 101, refTransactionId: 101, at },
    rule: 'a cancel has its own transactionId (D9)',
  },
  CancelSucceeded: { valid: { at }, invalid: { at: 'now' }, rule: 'times are instants' },
  WinDeadLettered: {
    valid: { attempts: 3, lastError: 'ERR_UNKNOWN', at, reason: 'delivery_failed' },
    invalid: { attempts: 3, lastError: '', at },
    rule: 'the last error is recorded',
  },
  WinRefused: {
    valid: { request: winRequest, reason: 'no_source', detail: 'the win names no source event', at },
    invalid: { request: betRequest, reason: 'no_source', detail: 'the win names no source event', at },
    rule: 'only wins are refused',
  },
  StakeRefused: {
    valid: { request: betRequest, reason: 'source_not_found', detail: 'round 201 has no RoundStarted', at },
    invalid: { request: winRequest, reason: 'source_not_found', detail: 'round 201 has no RoundStarted', at },
    rule: 'only bets and betwins are refused as stakes',
  },
  WebhookDeadLettered: {
    valid: {
      operatorId: 'demo',
      webhook: {
        eventId: 'bw-e3a2f1c0-0000-8000-8000-000000000001',
        type: 'bonus.completed',
        bonusId: 5,
        playerId: 'p1',
        sequence: 4,
        occurredAt: at,
        status: 'completed',
        currency: 'EUR',
        totalWin: 1.5,
        reason: 'spins_used',
      },
      key: 'demo:5',
      attempts: 10,
      lastError: 'HTTP 503',
      at,
    },
    invalid: { operatorId: 'demo', key: 'demo:5', attempts: 10, lastError: 'HTTP 503', at },
    rule: 'the webhook is kept, to be sent again as it was',
  },
  WebhookRedriveRequested: {
    valid: { at, requestId: 'req-1' },
    invalid: { at, requestId: '' },
    rule: 'a request id is not empty',
  },
};

describe('domain events v1: every type has a schema, a rule, and a union per stream family (docs/architecture.md "Data")', () => {
  it('the registry, the type constants and the examples cover the same 22 types', () => {
    expect(Object.keys(EventRegistry).sort()).toEqual(Object.keys(examples).sort());
    expect(Object.values(EventTypes).sort()).toEqual(Object.keys(examples).sort());
  });

  it.each(Object.entries(examples).map(([type, example]) => [type, example.rule, example] as const))(
    '%s: valid parses, and the rule holds: %s',
    (type, _rule, { valid, invalid }) => {
      expect(parseEvent(type, valid, currentSchemaVersion(type as DomainEvent['type']))).toEqual({ type, data: valid });
      expect(() => parseEvent(type, invalid, 1)).toThrow(InvalidEventDataError);
    },
  );

  it('each stream family’s union accepts its own events and no other family’s', () => {
    const families = [
      [
        playerBonusEvent,
        [
          'BonusCallRegistered',
          'FreeSpinStarted',
          'FreeSpinSettled',
          'RegularBonusSpinSettled',
          'BonusCallCompleted',
          'BonusCallExpired',
          'BonusCallCanceled',
        ],
      ],
      [sessionEvent, ['GameSessionStarted', 'GameSessionEnded']],
      [roundEvent, ['RoundStarted', 'RoundSettled', 'RoundCanceled']],
      [
        walletTxEvent,
        [
          'WalletRequested',
          'WalletAttempted',
          'WalletSucceeded',
          'WalletFailed',
          'CancelRequested',
          'CancelSucceeded',
          'WinDeadLettered',
          'WinRefused',
          'StakeRefused',
        ],
      ],
      [webhookLetterEvent, ['WebhookDeadLettered', 'WebhookRedriveRequested']],
    ] as const;
    for (const [union, types] of families) {
      for (const [type, example] of Object.entries(examples)) {
        expect(union.safeParse({ type, data: example.valid }).success).toBe(
          (types as readonly string[]).includes(type),
        );
      }
    }
  });
});

describe('upcasting: old schema versions are upcast on read (docs/architecture.md "Data")', () => {
  const { gameIds: _gameIds, ...v1WithoutGames } = registered;
  const legacy = { ...v1WithoutGames, gameId: 1001 };

  it('reads BonusCallRegistered v0 (one gameId) as v1 with gameIds [gameId]', () => {
    expect(currentSchemaVersion('BonusCallRegistered')).toBe(1);
    expect(parseEvent('BonusCallRegistered', legacy, 0)).toEqual({
      type: 'BonusCallRegistered',
      data: { ...v1WithoutGames, gameIds: [1001] },
    });
  });

  it('reads the version from stored metadata; no version means 1', () => {
    expect(
      parseStoredEvent({ type: 'BonusCallRegistered', data: legacy, metadata: { schemaVersion: 0 } }).data,
    ).toMatchObject({ gameIds: [1001] });
    expect(parseStoredEvent({ type: 'BonusCallRegistered', data: registered, metadata: {} }).data).toEqual(registered);
    expect(() => parseStoredEvent({ type: 'BonusCallRegistered', data: legacy, metadata: {} })).toThrow(
      InvalidEventDataError,
    );
  });

  it('refuses v0 data that is not the v0 shape, naming the version', () => {
    expect(() => parseEvent('BonusCallRegistered', registered, 0)).toThrow(
      /BonusCallRegistered \(schema version 0\) has invalid data/,
    );
  });

  it('refuses a version newer than the code, a version without an upcaster, and an unknown type', () => {
    expect(() => parseEvent('BonusCallRegistered', registered, 2)).toThrow(UnsupportedSchemaVersionError);
    expect(() => parseEvent('BonusCallRegistered', registered, 2)).toThrow(/newer than this code's 1/);
    expect(() => parseEvent('FreeSpinStarted', examples.FreeSpinStarted.valid, 0)).toThrow(/no upcaster to version 1/);
    expect(() => parseEvent('BonusCallRegistered', registered, 0.5)).toThrow(UnsupportedSchemaVersionError);
    expect(() => parseEvent('BonusCallDeleted', {}, 1)).toThrow(UnknownEventTypeError);
    expect(() => parseEvent('toString', {}, 1)).toThrow(UnknownEventTypeError);
  });
});

describe('eventToAppend: validated data and stamped metadata', () => {
  const context = { correlationId: 'req-1', causationId: 'c-1', operatorId: 'demo', occurredAt: at };

  it('stamps the current schemaVersion', () => {
    expect(eventToAppend({ type: 'BonusCallRegistered', data: registered } as DomainEvent, context)).toEqual({
      type: 'BonusCallRegistered',
      data: registered,
      metadata: { ...context, schemaVersion: 1 },
    });
  });

  it('refuses invalid data and invalid metadata before anything reaches the store', () => {
    expect(() =>
      eventToAppend({ type: 'FreeSpinSettled', data: examples.FreeSpinSettled.invalid } as DomainEvent, context),
    ).toThrow(InvalidEventDataError);
    expect(() => eventToAppend({ type: 'CancelSucceeded', data: { at } }, { ...context, occurredAt: 'now' })).toThrow();
  });

  it('validates a frozen context once: the events of one command share one frozen metadata', () => {
    const frozen = Object.freeze({ ...context });
    const first = eventToAppend({ type: 'CancelSucceeded', data: { at } }, frozen);
    const second = eventToAppend({ type: 'CancelSucceeded', data: { at } }, frozen);
    expect(first.metadata).toEqual({ ...context, schemaVersion: 1 });
    expect(second.metadata).toBe(first.metadata);
    expect(Object.isFrozen(first.metadata)).toBe(true);
    // A frozen context is still validated, and refused every time it is invalid.
    const invalid = Object.freeze({ ...context, occurredAt: 'now' });
    expect(() => eventToAppend({ type: 'CancelSucceeded', data: { at } }, invalid)).toThrow();
    expect(() => eventToAppend({ type: 'CancelSucceeded', data: { at } }, invalid)).toThrow();
  });

  it('validates a context that can change on every call', () => {
    const changing = { ...context };
    expect(eventToAppend({ type: 'CancelSucceeded', data: { at } }, changing).metadata.correlationId).toBe('req-1');
    changing.correlationId = 'req-2';
    expect(eventToAppend({ type: 'CancelSucceeded', data: { at } }, changing).metadata.correlationId).toBe('req-2');
    changing.occurredAt = 'now';
    expect(() => eventToAppend({ type: 'CancelSucceeded', data: { at } }, changing)).toThrow();
  });
});

describe('FreeSpinSettled carries the transactionId of its win callback (D10)', () => {
  it('requires a positive safe-integer transactionId, so the relay always sends the same one', () => {
    const { transactionId: _transactionId, ...withoutTransaction } = examples.FreeSpinSettled.valid as Record<
      string,
      unknown
    >;
    expect(() => parseEvent('FreeSpinSettled', withoutTransaction, 1)).toThrow(InvalidEventDataError);
    expect(() => parseEvent('FreeSpinSettled', { ...withoutTransaction, transactionId: 0 }, 1)).toThrow(
      InvalidEventDataError,
    );
    expect(parseEvent('FreeSpinSettled', examples.FreeSpinSettled.valid, 1).data).toMatchObject({ transactionId: 301 });
  });
});
