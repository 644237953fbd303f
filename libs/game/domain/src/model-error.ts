/** A game model that cannot be played as written (caught when it is compiled, never mid-round). */
export class ModelError extends Error {
  override readonly name = 'ModelError';
  constructor(
    readonly modelId: string,
    problem: string,
  ) {
    super(`model ${JSON.stringify(modelId)}: ${problem}`);
  }
}
