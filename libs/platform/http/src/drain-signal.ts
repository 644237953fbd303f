/**
 * Readiness that reports draining before the server closes. On SIGTERM Kubernetes removes a pod
 * from its Services' endpoints only after a readiness probe fails, while load balancers and other
 * nodes' proxies still send to it for a few seconds; closing at once resets those connections. So
 * the process first answers `/readyz` with 503 `draining` (every health endpoint of the process
 * reads one `DrainSignal`), keeps serving for `SHUTDOWN_DRAIN_MS`, and only then closes as before
 * (`runService` in @reelstream/platform-runtime does the waiting).
 */
export class DrainSignal {
  private since: number | undefined;

  /** True once `begin()` was called: `/readyz` answers 503 `draining`. */
  get draining(): boolean {
    return this.since !== undefined;
  }

  /** Starts reporting draining; further calls change nothing. */
  begin(now = Date.now()): void {
    this.since ??= now;
  }

  /**
   * Reports draining, then resolves after `ms` (at once for 0): the time for every probe and
   * proxy to take the pod out of rotation while requests still get answers.
   */
  async drainFor(ms: number): Promise<void> {
    this.begin();
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  }
}

/** The process's one signal, read by `healthEndpoints` and `startHealthServer` unless given another. */
export const processDrain = new DrainSignal();
