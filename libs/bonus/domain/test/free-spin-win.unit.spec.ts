import { describe, expect, it } from '@jest/globals';
import type { FreeSpinSettled } from '@reelstream/contracts';
import { freeSpinWinRequest } from '../src/index.js';

const settled: FreeSpinSettled['data'] = {
  issueId: 9001,
  roundId: 9002,
  gameId: 101,
  spinNumber: 3,
  rawWinMinor: 0,
  winMinor: 0,
  totalWinMinor: 400,
  spinsLeft: 7,
  settledAt: '2026-05-01T10:00:00.000Z',
  transactionId: 9003,
};
const owner = { operatorId: 'casino-t', playerId: 'player_42' };
const source = { stream: 'playerBonus-casino-t-player_42', revision: 12, eventId: 'e-12' };

describe('the win of a settled free spin (D10)', () => {
  it('is one win with the settled transactionId, bonusId = issueId, isRoundFinished, even for 0', () => {
    expect(freeSpinWinRequest(settled, owner, { providerId: 1, currency: 'EUR' }, source)).toEqual({
      command: 'win',
      transactionId: 9003,
      operatorId: 'casino-t',
      playerId: 'player_42',
      roundId: 9002,
      providerId: 1,
      gameId: 101,
      currency: 'EUR',
      bonusId: 9001,
      requestedAt: '2026-05-01T10:00:00.000Z',
      amountMinor: 0,
      isRoundFinished: true,
      source,
    });
  });

  it('is in the bonus call’s currency and provider, whatever the session played in', () => {
    const win = freeSpinWinRequest({ ...settled, winMinor: 150 }, owner, { providerId: 2, currency: 'SEK' }, source);
    expect(win).toMatchObject({ currency: 'SEK', providerId: 2, amountMinor: 150 });
  });
});
