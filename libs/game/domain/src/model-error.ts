import { ReelstreamError } from '@reelstream/contracts';

/** A game model that cannot be played as written (caught when it is compiled, never mid-round). */
export class ModelError extends ReelstreamError {
  override readonly name = 'ModelError';
  constructor(
    readonly modelId: string,
    problem: string,
  ) {
    super('CONFIGURATION_INVALID', `model ${JSON.stringify(modelId)}: ${problem}`, { retriable: false });
  }
}

/** A caller broke a rule the game's code relies on: a bug, never a player's input. Not retriable. */
export class InvariantError extends ReelstreamError {
  override readonly name: string = 'InvariantError';
  constructor(message: string) {
    super('INTERNAL', message, { retriable: false });
  }
}
