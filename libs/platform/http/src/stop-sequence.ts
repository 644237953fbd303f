/**
 * The one shutdown idiom of every service's start function: each part, once started, registers
 * how it stops; `stop()` runs the steps last-started-first, once however often it is called (the
 * platform's drain and a test's cleanup may both call it), and runs every step even when one
 * fails, rethrowing the first failure afterwards, so one stuck part never leaves the others running.
 */
import type { Server } from 'node:http';
import { closeGracefully } from './graceful-close.js';

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

/**
 * The last step an HTTP service registers, once its server listens: on stop it turns new requests
 * away (`stopAccepting`: health reads not ready), lets those in flight finish for the drain `stop`
 * was called with (`defaultDrainMs` without one), closes the server, then runs the earlier steps.
 * Returns that `stop`.
 */
export function stopWithDrain(
  stops: StopSequence,
  server: Server,
  defaultDrainMs: number,
  stopAccepting: () => void,
): (drainMs?: number) => Promise<void> {
  let drainMs = defaultDrainMs;
  stops.add(async () => {
    stopAccepting();
    await closeGracefully(server, drainMs);
  });
  return (drain = defaultDrainMs) => {
    drainMs = drain;
    return stops.stop();
  };
}
