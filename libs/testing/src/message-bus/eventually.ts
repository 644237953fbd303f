const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Retries `check` until it stops throwing and returns its result; after `timeoutMs` rethrows the
 * last failure. Waits for a condition instead of sleeping a fixed time.
 */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 10_000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
    }
    await sleep(intervalMs);
  }
}
