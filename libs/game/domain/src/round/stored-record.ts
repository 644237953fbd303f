/** A round's engine record as stored in its events (`recordOf`, as plain JSON), and back. */
import { replayRound } from './play-round.js';
import { recordOf, type RoundOutcome } from './round-outcome.js';
import { roundRecordSchema } from './round-record-schema.js';

export function storedRecord(outcome: RoundOutcome) {
  const record = recordOf(outcome);
  return { modelId: record.modelId, profile: record.profile, betMinor: record.betMinor, draws: [...record.draws] };
}

/** The outcome a stored record produces; a record that is not a possible round throws (a fault to look at, never skipped). */
export function replayStored(json: unknown): RoundOutcome {
  return replayRound(roundRecordSchema.parse(json));
}
