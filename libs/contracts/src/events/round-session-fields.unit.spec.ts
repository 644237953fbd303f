import { describe, expect, it } from '@jest/globals';
import { gameSessionStarted, SESSION_TOKEN } from '@reelstream/testing';
import { InvalidEventDataError, parseEvent } from './upcasting.js';

const at = '2026-05-01T10:00:00.000Z';
const session = gameSessionStarted();
const started = {
  roundId: 201,
  sessionToken: SESSION_TOKEN,
  operatorId: 'demo',
  playerId: 'player_42',
  providerId: 7,
  gameId: 1001,
  kind: 'paid',
  currency: 'EUR',
  betMinor: 20,
  bonusId: 0,
  rtpProfile: 'standard',
  startedAt: at,
};
const record = { modelId: 'lucky-wheel', profile: 'standard', betMinor: 20, draws: [17] };

describe('GameSessionStarted.demo (optional, added for demo sessions)', () => {
  it('reads a session written without the field as a real-money session, and keeps the flag when present', () => {
    expect(parseEvent('GameSessionStarted', session, 1).data).not.toHaveProperty('demo');
    expect(parseEvent('GameSessionStarted', { ...session, demo: true }, 1).data).toMatchObject({ demo: true });
  });

  it('refuses a demo flag that is not a boolean', () => {
    expect(() => parseEvent('GameSessionStarted', { ...session, demo: 'yes' }, 1)).toThrow(InvalidEventDataError);
  });
});

describe('RoundStarted: the bet transaction and a pre-played outcome (optional)', () => {
  it('accepts a paid round with its bet transaction, D21 flag and, for a betwin round, its outcome', () => {
    const data = parseEvent(
      'RoundStarted',
      { ...started, transactionId: 301, isBonusBusy: true, outcome: record },
      1,
    ).data;
    expect(data).toMatchObject({ transactionId: 301, isBonusBusy: true, outcome: record });
  });

  it('still reads a round written without them', () => {
    expect(parseEvent('RoundStarted', started, 1).data).toEqual(started);
  });

  it('refuses a bet transaction on a free round (D10: free spins place no bet)', () => {
    expect(() => parseEvent('RoundStarted', { ...started, kind: 'free', bonusId: 5, transactionId: 301 }, 1)).toThrow(
      /a free round has no bet transaction/,
    );
  });

  it('refuses a transactionId that is not a positive safe integer', () => {
    expect(() => parseEvent('RoundStarted', { ...started, transactionId: 0 }, 1)).toThrow(InvalidEventDataError);
  });
});

describe('RoundSettled.winTransactionId (optional): the win callback id fixed in the event', () => {
  const settled = { roundId: 201, outcome: record, winMinor: 40, settledAt: at };

  it('keeps the id, and reads a settlement without one', () => {
    expect(parseEvent('RoundSettled', { ...settled, winTransactionId: 302 }, 1).data).toMatchObject({
      winTransactionId: 302,
    });
    expect(parseEvent('RoundSettled', settled, 1).data).toEqual(settled);
  });

  it('refuses an id beyond 2^53 − 1', () => {
    expect(() => parseEvent('RoundSettled', { ...settled, winTransactionId: 2 ** 53 }, 1)).toThrow(
      InvalidEventDataError,
    );
  });
});
