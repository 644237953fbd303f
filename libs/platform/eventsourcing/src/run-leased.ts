/**
 * Singleton work across replicas (docs/adr/0005-leases-and-fencing.md): a worker runs only in the
 * replica holding the lease of its name. The holder renews at a third of the ttl; a renewal that
 * fails, or a lease whose ttl passed on this replica's clock, stops the worker at once, and its
 * checkpoint writes carry the lease's fencing token, so a holder that lost the lease without
 * noticing (paused, cut off) can move the checkpoint neither back nor forward. Other replicas ask
 * for the lease at the same pace and get it once the ttl passed without a renewal.
 */
import { ReelstreamError } from '@reelstream/contracts';
import {
  FencedOutError,
  type CheckpointStore,
  type Lease,
  type LeasesAndFencedCheckpoints,
} from '@reelstream/platform-ports';

/** What `start` returns: the running worker. */
interface LeasedWork {
  stop(): Promise<void>;
}

/** Handed to the worker with the lease. */
export interface LeaseGuard {
  readonly lease: Lease;
  /** Checkpoints of the lease's name, written with its token. */
  readonly checkpoints: CheckpointStore;
  /**
   * False once this replica may no longer be the only one working: the lease was lost, or its ttl
   * passed on this replica's clock without a renewal. Check it before sending anything.
   */
  held(): boolean;
}

export interface RunLeasedOptions {
  leases: LeasesAndFencedCheckpoints;
  /** The lease's name; also the name of the checkpoint the worker may keep under it. */
  name: string;
  /** This replica's instance id. */
  owner: string;
  ttlMs: number;
  start(guard: LeaseGuard): LeasedWork | Promise<LeasedWork>;
  /** Acquired, lost or released: for the log. */
  onChange?: (change: 'acquired' | 'lost' | 'released', lease: Lease) => void;
  onError?: (error: unknown) => void;
  /** Epoch ms. Default `Date.now`. */
  now?: () => number;
}

export interface LeasedRunner {
  /** True while this replica holds the lease and its worker runs. */
  readonly holding: boolean;
  /** Stops the worker (its final checkpoint is fenced like every other) and releases the lease. */
  stop(): Promise<void>;
  /** Stops the worker WITHOUT releasing: the others wait out the ttl, as after a crash. For tests. */
  abandon(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** This worker no longer holds its lease: not retriable, it stops (and tries to acquire it again). */
class LostLease extends ReelstreamError {
  override readonly name = 'LostLease';
  constructor(message: string) {
    super('SERVICE_UNAVAILABLE', message, { retriable: false });
  }
}

// Long because: the acquire loop, the renewal timer and stop share the current lease and worker (closures).
export function runLeased(options: RunLeasedOptions): LeasedRunner {
  const { leases, name, owner, ttlMs } = options;
  const now = options.now ?? Date.now;
  const interval = Math.max(1, Math.floor(ttlMs / 3));
  const onError = options.onError ?? (() => undefined);

  let stopped = false;
  let lease: Lease | undefined;
  let work: LeasedWork | undefined;
  let lost: (() => void) | undefined;
  let wake: (() => void) | undefined;

  const valid = (current: Lease): boolean => lease === current && now() < current.expiresAt;
  /** The lease is gone: `held()` is false from now on, and the renewal loop ends. */
  const lose = (granted: Lease): void => {
    if (lease?.token === granted.token) lease = undefined;
    lost?.();
  };

  const guardOf = (granted: Lease): LeaseGuard => ({
    lease: granted,
    held: () => lease !== undefined && lease.token === granted.token && now() < lease.expiresAt,
    checkpoints: {
      load: (checkpoint) => leases.load(checkpoint),
      async store(checkpoint, position) {
        if (checkpoint !== name) throw new Error(`lease ${name} cannot write checkpoint ${checkpoint}`);
        try {
          await leases.store(checkpoint, position, granted.token);
        } catch (error) {
          if (error instanceof FencedOutError) lose(granted);
          throw error;
        }
      },
    },
  });

  /** Renews until the lease is lost or the runner stops; resolves when either happened. */
  const hold = async (granted: Lease): Promise<void> => {
    let current = granted;
    const loss = new Promise<void>((resolve) => (lost = resolve));
    for (;;) {
      const tick = new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, interval).unref();
      });
      await Promise.race([tick, loss]);
      if (stopped) return;
      if (lease !== current) throw new LostLease(`lease ${name} was fenced out`);
      if (!valid(current)) throw new LostLease(`lease ${name} expired before it was renewed`);
      let renewed: Lease | undefined;
      try {
        renewed = await leases.renew(current, ttlMs);
      } catch (error) {
        onError(error);
      }
      if (stopped) return;
      if (!renewed) {
        lose(current);
        throw new LostLease(`lease ${name} could not be renewed`);
      }
      current = renewed;
      lease = renewed;
    }
  };

  const stopWork = async (): Promise<void> => {
    const running = work;
    work = undefined;
    try {
      await running?.stop();
    } catch (error) {
      // A worker that lost its lease cannot write its last checkpoint: the next owner replays from the one before.
      if (!(error instanceof FencedOutError)) onError(error);
    }
  };

  const loop = async (): Promise<void> => {
    while (!stopped) {
      let granted: Lease | undefined;
      try {
        granted = await leases.acquire(name, owner, ttlMs);
      } catch (error) {
        onError(error);
      }
      if (stopped) {
        if (granted) await leases.release(granted).catch(onError);
        return;
      }
      if (!granted) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, interval).unref();
        });
        continue;
      }
      lease = granted;
      options.onChange?.('acquired', granted);
      try {
        work = await options.start(guardOf(granted));
        await hold(granted);
      } catch (error) {
        if (!(error instanceof LostLease)) onError(error);
      }
      lease = undefined;
      await stopWork();
      if (!stopped) options.onChange?.('lost', granted);
      if (!stopped) await sleep(interval);
    }
  };

  const running = loop();

  const halt = async (release: boolean): Promise<void> => {
    stopped = true;
    const held = lease;
    lease = undefined;
    wake?.();
    lost?.();
    await running;
    await stopWork();
    if (release && held) {
      await leases.release(held).catch(onError);
      options.onChange?.('released', held);
    }
  };

  return {
    get holding() {
      return lease !== undefined && work !== undefined;
    },
    stop: () => halt(true),
    abandon: () => halt(false),
  };
}
