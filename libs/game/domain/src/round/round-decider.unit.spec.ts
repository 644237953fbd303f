import { describe, expect, it } from '@jest/globals';
import type { RoundCanceled, RoundSettled, RoundStarted } from '@reelstream/contracts';
import { deciderSpecification, paidRoundStarted } from '@reelstream/testing';
import { roundDecider } from '@reelstream/game-domain';

const spec = deciderSpecification(roundDecider);

const data = paidRoundStarted();
const started: RoundStarted = { type: 'RoundStarted', data };
const canceled: RoundCanceled = {
  type: 'RoundCanceled',
  data: { roundId: 501, reason: 'bet_rejected:ERR_NOT_ENOUGH_MONEY', canceledAt: '2026-05-01T10:00:01.000Z' },
};
const settled: RoundSettled = {
  type: 'RoundSettled',
  data: {
    roundId: 501,
    outcome: { modelId: 'neon-fruits', profile: 'standard', betMinor: 100, draws: [1, 2, 3, 4, 5] },
    winMinor: 0,
    settledAt: '2026-05-01T10:00:01.000Z',
    winTransactionId: 503,
  },
};

describe('StartRound', () => {
  it('starts a round once; a second start (another hand of the same free spin) decides nothing', () => {
    spec.given([]).when({ type: 'StartRound', started: data }).then([started]);
    spec
      .given([started])
      .when({ type: 'StartRound', started: { ...data, startedAt: '2026-05-01T10:00:05.000Z' } })
      .thenNothing();
  });
});

describe('FinishRound', () => {
  it('ends a started round with its settlement or its cancel', () => {
    spec.given([started]).when({ type: 'FinishRound', roundId: 501, end: settled }).then([settled]);
    spec.given([started]).when({ type: 'FinishRound', roundId: 501, end: canceled }).then([canceled]);
  });

  it('decides nothing for a round already ended, whichever end the second hand brings', () => {
    spec.given([started, canceled]).when({ type: 'FinishRound', roundId: 501, end: settled }).thenNothing();
    spec.given([started, settled]).when({ type: 'FinishRound', roundId: 501, end: settled }).thenNothing();
  });

  it('refuses to end a round that never started, or with the end of another round', () => {
    spec.given([]).when({ type: 'FinishRound', roundId: 501, end: settled }).thenFails({
      code: 'ROUND_NOT_FOUND',
      message: 'round 501 cannot end: it was never started',
    });
    spec
      .given([started])
      .when({ type: 'FinishRound', roundId: 501, end: { ...canceled, data: { ...canceled.data, roundId: 777 } } })
      .thenFails({ code: 'ROUND_NOT_FOUND', message: "the end of round 777 is not round 501's" });
  });

  it('keeps the first end as the round’s end', () => {
    const state = [started, canceled, settled].reduce(roundDecider.evolve, roundDecider.initialState);
    expect(state).toEqual({ started: data, end: canceled });
  });
});
