/**
 * The `round-{roundId}` stream's rules: RoundStarted, then exactly one of RoundSettled or
 * RoundCanceled. Starting a round already started and finishing a round already finished decide
 * nothing (the caller reads what the first writer recorded), so two hands finishing the same round
 * (a spin that gave up waiting and the resolver that took it over) end with one end, never two.
 */
import type { RoundCanceled, RoundEvent, RoundSettled, RoundStarted } from '@reelstream/contracts';
import { refusal, type Refusal } from '@reelstream/contracts';

export type RoundStartedData = RoundStarted['data'];
export type RoundEnd = RoundSettled | RoundCanceled;

export interface RoundState {
  readonly started?: RoundStartedData;
  readonly end?: RoundEnd;
}

export type RoundCommand =
  | { readonly type: 'StartRound'; readonly started: RoundStartedData }
  | { readonly type: 'FinishRound'; readonly roundId: number; readonly end: RoundEnd };

const initialState: RoundState = {};

function decide(command: RoundCommand, state: RoundState): readonly RoundEvent[] | Refusal {
  if (command.type === 'StartRound') {
    // A round id is drawn once; a second start is another hand of the same free spin: it plays on with the first.
    if (state.started) return [];
    return [{ type: 'RoundStarted', data: command.started }];
  }
  if (!state.started) return refusal('ROUND_NOT_FOUND', `round ${command.roundId} cannot end: it was never started`);
  if (command.end.data.roundId !== state.started.roundId)
    return refusal('ROUND_NOT_FOUND', `the end of round ${command.end.data.roundId} is not round ${command.roundId}'s`);
  if (state.end) return [];
  return [command.end];
}

function evolve(state: RoundState, event: RoundEvent): RoundState {
  if (event.type === 'RoundStarted') return state.started ? state : { ...state, started: event.data };
  // The first end is the round's end; a later one (which only a fault could write) changes nothing.
  return state.end ? state : { ...state, end: event };
}

export const roundDecider = { initialState, decide, evolve };
