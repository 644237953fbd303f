import { ReelstreamError } from '@reelstream/contracts';
import { AmountError } from '@reelstream/money';
import type { GameModel } from '../game-model.js';
import { compileWheel } from '../instant/compiled-wheel.js';
import { playInstant } from '../instant/play-instant.js';
import { findModel } from '../models/registry.js';
import type { Profile } from '../profile.js';
import { RecordingRng, ReplayError, ReplayRng } from '../rng/recorded-rng.js';
import type { Rng } from '../rng/rng.js';
import { compileSlot } from '../slot/compiled-slot.js';
import { playSlot } from '../slot/play-slot.js';
import { deepEqual } from './deep-equal.js';
import type { RoundOutcome, RoundRecord, UnrecordedOutcome } from './round-outcome.js';
import { roundRecordSchema } from './round-record-schema.js';

export interface PlayRoundInput {
  /** A model, or the id of one of the built-in models (the catalog's `model`). */
  readonly model: GameModel | string;
  readonly profile: Profile;
  /** The bet of the round in minor units (for a free spin: the bonus's base bet). */
  readonly betMinor: number;
  readonly rng: Rng;
}

/** A catalog or a call naming a model this release does not have. */
export class UnknownModelError extends ReelstreamError {
  override readonly name = 'UnknownModelError';
  constructor(readonly modelId: string) {
    super('CONFIGURATION_INVALID', `no game model with id ${JSON.stringify(modelId)}`, { retriable: false });
  }
}

/** Plays one round and returns its outcome together with every draw it took. */
export function playRound({ model, profile, betMinor, rng }: PlayRoundInput): RoundOutcome {
  const resolved = typeof model === 'string' ? findModel(model) : model;
  if (!resolved) throw new UnknownModelError(String(model));
  const recording = new RecordingRng(rng);
  return { ...evaluate(resolved, profile, betMinor, recording), draws: recording.draws };
}

/**
 * Recomputes a round from its record alone: no randomness, only the recorded draws, each checked
 * against the bound the engine asks for. A record that is malformed, or not a complete, possible
 * round, throws a `ReplayError`. Pass `model` to replay against a model outside the built-in registry.
 */
export function replayRound(untrusted: RoundRecord, model?: GameModel): RoundOutcome {
  const parsed = roundRecordSchema.safeParse(untrusted);
  if (!parsed.success) {
    throw new ReplayError(
      'INVALID_RECORD',
      `malformed round record: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  }
  const record = parsed.data;
  const resolved = model ?? findModel(record.modelId);
  if (!resolved) throw new ReplayError('UNKNOWN_MODEL', `no game model with id ${JSON.stringify(record.modelId)}`);
  if (resolved.id !== record.modelId)
    throw new ReplayError('MODEL_MISMATCH', `record of model ${record.modelId} replayed on ${resolved.id}`);
  const replay = new ReplayRng(record.draws);
  const outcome = evaluate(resolved, record.profile, record.betMinor, replay);
  replay.assertFullyConsumed();
  return { ...outcome, draws: record.draws };
}

export type RoundVerification = { readonly ok: true } | { readonly ok: false; readonly error: ReplayError };

/** Audits a stored outcome: replays its draws and requires every field to match what they produce. */
export function verifyRound(outcome: RoundOutcome, model?: GameModel): RoundVerification {
  try {
    const replayed = replayRound(outcome, model);
    if (!deepEqual(replayed, outcome)) {
      return {
        ok: false,
        error: new ReplayError(
          'OUTCOME_MISMATCH',
          `the outcome differs from what its ${outcome.draws.length} draws produce`,
        ),
      };
    }
    return { ok: true };
  } catch (error) {
    if (error instanceof ReplayError) return { ok: false, error };
    throw error;
  }
}

function evaluate(model: GameModel, profile: Profile, betMinor: number, rng: Rng): UnrecordedOutcome {
  if (!Number.isSafeInteger(betMinor) || betMinor < 1) {
    throw new AmountError('AMOUNT_INVALID', `betMinor must be a positive integer of minor units, got ${betMinor}`);
  }
  return model.kind === 'slot'
    ? playSlot(compileSlot(model, profile), betMinor, rng)
    : playInstant(compileWheel(model, profile), betMinor, rng);
}
