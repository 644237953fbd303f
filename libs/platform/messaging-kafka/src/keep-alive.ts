/**
 * Runs `work` and calls `heartbeat` every `intervalMs` until it settles, so a handler (or a retry delay)
 * longer than the group's session timeout does not get the consumer thrown out of its group and its
 * partitions handed to another member mid-work (kafkajs issue #1046). A failed heartbeat (the group is
 * rebalancing) is reported but does not abort the work: the commit that follows fails in the same way
 * and hands the record back to the group.
 */
export async function whileHeartbeating<T>(
  work: () => Promise<T>,
  heartbeat: () => Promise<void>,
  intervalMs: number,
  onHeartbeatError: (error: unknown) => void,
): Promise<T> {
  let beating = false;
  const timer = setInterval(() => {
    if (beating) return;
    beating = true;
    heartbeat()
      .catch(onHeartbeatError)
      .finally(() => {
        beating = false;
      });
  }, intervalMs);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/** A delay that ends early when `signal` aborts. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
