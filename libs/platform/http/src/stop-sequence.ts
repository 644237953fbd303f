/**
 * The one shutdown idiom of every service's start function: each part, once started, registers
 * how it stops; `stop()` runs the steps last-started-first, once however often it is called (the
 * platform's drain and a test's cleanup may both call it), and runs every step even when one
 * fails, rethrowing the first failure afterwards, so one stuck part never leaves the others running.
 */
export type StopStep = () => Promise<void> | void;

export class StopSequence {
  private readonly steps: StopStep[] = [];
  private stopping: Promise<void> | undefined;

  /** Registers a step; call it right after the part it stops has started. */
  add(step: StopStep): void {
    this.steps.push(step);
  }

  stop(): Promise<void> {
    return (this.stopping ??= this.run());
  }

  private async run(): Promise<void> {
    let failure: { error: unknown } | undefined;
    for (const step of [...this.steps].reverse()) {
      try {
        await step();
      } catch (error) {
        failure ??= { error };
      }
    }
    if (failure) throw failure.error;
  }
}
