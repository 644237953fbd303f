import { describe, expect, it } from '@jest/globals';
import {
  createSeededRng,
  gameModels,
  playRound,
  profiles,
  recordOf,
  replayRound,
  ReplayError,
  roundRecordSchema,
  simulate,
  UnknownModelError,
  verifyRound,
  type RoundOutcome,
  type SlotOutcome,
} from '@reelstream/game-domain';
import { AmountError } from '@reelstream/money';

const thunderVault = gameModels.find((model) => model.id === 'thunder-vault');

function slotRound(seed: string): SlotOutcome {
  if (!thunderVault) throw new Error('thunder-vault model missing');
  const outcome = playRound({ model: thunderVault, profile: 'standard', betMinor: 250, rng: createSeededRng(seed) });
  if (outcome.kind !== 'slot') throw new Error('expected a slot round');
  return outcome;
}

function thrownBy(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected the action to throw');
}

function replayErrorCode(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    if (error instanceof ReplayError) return error.reason;
    throw error;
  }
  return 'none';
}

describe('round records', () => {
  it('replays 1,000 random rounds of every model and profile into exactly the outcome that was played', () => {
    let bonusRounds = 0;
    let winningRounds = 0;
    const mismatches: string[] = [];
    for (const model of gameModels) {
      for (const profile of profiles) {
        const rng = createSeededRng(`replay:${model.id}:${profile}`);
        for (let i = 0; i < 1000; i++) {
          const played = playRound({ model: model.id, profile, betMinor: 100 + i, rng });
          // through JSON and the schema, as a stored event would come back
          const stored = roundRecordSchema.parse(JSON.parse(JSON.stringify(recordOf(played))));
          const replayed = replayRound(stored);
          // both sides are built by the same code in the same key order: equal JSON is equal outcomes
          if (JSON.stringify(replayed) !== JSON.stringify(played)) mismatches.push(`${model.id}/${profile} round ${i}`);
          if (played.kind === 'slot' && played.bonus) bonusRounds++;
          if (played.winMinor > 0) winningRounds++;
        }
      }
    }
    expect(mismatches).toEqual([]);
    // the sample must reach the feature and the wins, or the check above proves little
    expect(bonusRounds).toBeGreaterThan(25);
    expect(winningRounds).toBeGreaterThan(5000);
  });

  it('verifies an untouched outcome, including one read back from JSON', () => {
    const outcome = slotRound('verify');
    expect(verifyRound(outcome)).toEqual({ ok: true });
    expect(verifyRound(JSON.parse(JSON.stringify(outcome)) as RoundOutcome)).toEqual({ ok: true });
  });

  it('detects a draw outside the range the engine asks for', () => {
    const outcome = slotRound('tamper-range');
    const reelOneLength = thunderVault?.kind === 'slot' ? (thunderVault.profiles.standard.reels[0]?.length ?? 0) : 0;
    const draws = [reelOneLength, ...outcome.draws.slice(1)];
    expect(replayErrorCode(() => replayRound({ ...recordOf(outcome), draws }))).toBe('DRAW_OUT_OF_RANGE');
    const verification = verifyRound({ ...outcome, draws });
    expect(verification.ok).toBe(false);
    expect(verification.ok ? undefined : verification.error.reason).toBe('DRAW_OUT_OF_RANGE');
  });

  it('detects a record with a draw missing or a draw too many', () => {
    const record = recordOf(slotRound('tamper-length'));
    expect(replayErrorCode(() => replayRound({ ...record, draws: record.draws.slice(0, -1) }))).toBe('DRAWS_EXHAUSTED');
    expect(replayErrorCode(() => replayRound({ ...record, draws: [...record.draws, 0] }))).toBe('DRAWS_LEFT_OVER');
  });

  it('detects an outcome that its draws do not produce: a changed win, a changed stop, a changed bet', () => {
    const outcome = slotRound('tamper-outcome');
    const mismatch = (tampered: RoundOutcome) => {
      const verification = verifyRound(tampered);
      return verification.ok ? 'accepted' : verification.error.reason;
    };
    expect(mismatch({ ...outcome, winMinor: outcome.winMinor + 1 })).toBe('OUTCOME_MISMATCH');
    expect(mismatch({ ...outcome, winCoins: outcome.winCoins + 25 })).toBe('OUTCOME_MISMATCH');
    expect(mismatch({ ...outcome, betMinor: outcome.betMinor * 2 })).toBe('OUTCOME_MISMATCH');
    const lengths =
      thunderVault?.kind === 'slot' ? thunderVault.profiles.standard.reels.map((strip) => strip.length) : [];
    const shifted = outcome.draws.map((draw, index) => (index === 2 ? (draw + 1) % (lengths[2] ?? 1) : draw));
    expect(mismatch({ ...outcome, draws: shifted })).toBe('OUTCOME_MISMATCH');
  });

  it('refuses a malformed record: an unknown profile, a fractional bet, a non-integer draw', () => {
    const record = recordOf(slotRound('malformed'));
    expect(replayErrorCode(() => replayRound({ ...record, profile: 'vip' as 'standard' }))).toBe('INVALID_RECORD');
    expect(replayErrorCode(() => replayRound({ ...record, betMinor: 2.5 }))).toBe('INVALID_RECORD');
    expect(replayErrorCode(() => replayRound({ ...record, draws: [0.5, ...record.draws.slice(1)] }))).toBe(
      'INVALID_RECORD',
    );
  });

  it('names every malformed field of a record, by its path, in one message', () => {
    const record = recordOf(slotRound('malformed-fields'));
    const error = thrownBy(() => replayRound({ ...record, draws: [0.5, -1] }));
    expect(error).toBeInstanceOf(ReplayError);
    expect(error).toMatchObject({
      name: 'ReplayError',
      reason: 'INVALID_RECORD',
      code: 'EVENT_NOT_READABLE',
      retriable: false,
    });
    expect((error as Error).message).toBe(
      'malformed round record: draws.0: Invalid input: expected int, received number; draws.1: Too small: expected number to be >=0',
    );
  });

  it('refuses to replay an unknown model or on a different model', () => {
    const record = recordOf(slotRound('models'));
    expect(replayErrorCode(() => replayRound({ ...record, modelId: 'no-such-model' }))).toBe('UNKNOWN_MODEL');
    const other = gameModels.find((model) => model.id === 'lotus-garden');
    expect(replayErrorCode(() => replayRound(record, other))).toBe('MODEL_MISMATCH');
    expect(() => replayRound(record, other)).toThrow(
      new ReplayError('MODEL_MISMATCH', 'record of model thunder-vault replayed on lotus-garden'),
    );
  });

  it('reports an outcome that its draws do not produce, counting the draws', () => {
    const outcome = slotRound('tamper-message');
    const verification = verifyRound({ ...outcome, winMinor: outcome.winMinor + 1 });
    expect(verification.ok ? undefined : verification.error.message).toBe(
      `the outcome differs from what its ${outcome.draws.length} draws produce`,
    );
  });

  it('refuses a bet that is not a positive whole number of minor units, and an unknown model id', () => {
    const rng = createSeededRng('bets');
    for (const betMinor of [0, -100, 1.5, Number.NaN]) {
      expect(() => playRound({ model: 'lotus-garden', profile: 'standard', betMinor, rng })).toThrow(AmountError);
    }
    expect(() => playRound({ model: 'lotus-garden', profile: 'standard', betMinor: 1.5, rng })).toThrow(
      'betMinor must be a positive integer of minor units, got 1.5',
    );
    const unknown = thrownBy(() => playRound({ model: 'no-such-model', profile: 'standard', betMinor: 100, rng }));
    expect(unknown).toBeInstanceOf(UnknownModelError);
    expect(unknown).toMatchObject({
      name: 'UnknownModelError',
      modelId: 'no-such-model',
      message: 'no game model with id "no-such-model"',
    });
  });

  it('simulates exactly the rounds playRound plays from the same seed', () => {
    for (const model of gameModels) {
      const rounds = 3000;
      const rng = createSeededRng(`same:${model.id}`);
      let winCoins = 0;
      let hits = 0;
      let triggers = 0;
      for (let i = 0; i < rounds; i++) {
        const outcome = playRound({ model, profile: 'streamer', betMinor: 100, rng });
        winCoins += outcome.winCoins;
        if (outcome.winCoins > 0) hits++;
        if (outcome.kind === 'slot' && outcome.bonus) triggers++;
      }
      const simulated = simulate(model, 'streamer', rounds, `same:${model.id}`);
      expect({
        id: model.id,
        winCoins: simulated.totalWinCoins,
        hitRate: simulated.hitRate,
        bonusTriggerRate: simulated.bonusTriggerRate,
      }).toEqual({
        id: model.id,
        winCoins,
        hitRate: hits / rounds,
        bonusTriggerRate: triggers / rounds,
      });
    }
  });
});
