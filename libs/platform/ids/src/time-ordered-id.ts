import type { IdGenerator } from '@reelstream/platform-ports';

/**
 * 53-bit time-ordered ids: safe as JSON numbers and JavaScript numbers (≤ 2^53 − 1), which the
 * operator API's `long` fields and `longId` of the contracts require (ADR 0039).
 *
 *   | 37 bits: 10 ms units since 2025-01-01 UTC | 10 bits: worker | 6 bits: sequence |
 *
 * 37 bits of 10 ms last until July 2068; 1,024 workers may draw concurrently without coordination;
 * each worker draws 64 ids per unit (6,400 a second) and beyond that borrows the next unit, up to
 * one second ahead of its clock, and only then waits for the clock. A new generator starts past the
 * furthest unit a predecessor on the same worker id could have borrowed, so a restart repeats none.
 */
export const ID_EPOCH_MS = Date.UTC(2025, 0, 1);
export const ID_UNIT_MS = 10;
const WORKER_BITS = 10;
const SEQUENCE_BITS = 6;
export const MAX_WORKER_ID = 2 ** WORKER_BITS - 1;
const MAX_SEQUENCE = 2 ** SEQUENCE_BITS - 1;
const TIME_SHIFT = 2 ** (WORKER_BITS + SEQUENCE_BITS);
const WORKER_SHIFT = 2 ** SEQUENCE_BITS;
export const MAX_ID_UNIT = 2 ** (53 - WORKER_BITS - SEQUENCE_BITS) - 1;
/** How far ahead of its clock a worker may draw, in units: a burst's headroom, and a restart's wait. */
export const MAX_LEAD_UNITS = 100;

/**
 * The wall clock at process start plus a monotonic clock since then: it never steps back (an NTP
 * step, a leap second), so a process's ids follow the time it has measured, not the time it is told.
 */
function monotonicWallClock(): number {
  return performance.timeOrigin + performance.now();
}

const sleepCell = new Int32Array(new SharedArrayBuffer(4));
/** Blocks the thread without spinning; `next()` is synchronous and waits at most a unit at a time. */
function sleepSync(ms: number): void {
  Atomics.wait(sleepCell, 0, 0, ms);
}

export interface TimeOrderedIdOptions {
  /** Milliseconds since 1970. Default `monotonicWallClock`. */
  nowMs?: () => number;
  /** Waits `ms` milliseconds; called only when the worker is a full lead ahead of its clock. */
  sleepMs?: (ms: number) => void;
}

export class TimeOrderedIdGenerator implements IdGenerator {
  private readonly nowMs: () => number;
  private readonly sleepMs: (ms: number) => void;
  /** The unit of the last id drawn. */
  private unit: number;
  private sequence = MAX_SEQUENCE;
  /** The furthest unit the clock has shown: a clock that steps back holds here. */
  private clockUnit = 0;

  constructor(
    readonly workerId: number,
    options: TimeOrderedIdOptions = {},
  ) {
    if (!Number.isInteger(workerId) || workerId < 0 || workerId > MAX_WORKER_ID) {
      throw new RangeError(`worker id must be an integer 0–${MAX_WORKER_ID}, got ${workerId}`);
    }
    this.nowMs = options.nowMs ?? monotonicWallClock;
    this.sleepMs = options.sleepMs ?? sleepSync;
    // A predecessor on this worker id (a restart within the same unit included) drew at most
    // MAX_LEAD_UNITS ahead of a clock no later than this one: start as though its units were all spent.
    this.unit = this.readClock() + MAX_LEAD_UNITS;
  }

  next(): number {
    const clock = this.readClock();
    if (clock > this.unit) {
      this.unit = clock;
      this.sequence = 0;
    } else if (this.sequence < MAX_SEQUENCE) {
      this.sequence += 1;
    } else {
      this.unit += 1;
      this.sequence = 0;
      this.waitForLead();
    }
    if (this.unit > MAX_ID_UNIT) throw new RangeError('the 37-bit id clock is exhausted (July 2068)');
    return this.unit * TIME_SHIFT + this.workerId * WORKER_SHIFT + this.sequence;
  }

  /** Borrowing past MAX_LEAD_UNITS waits for the clock instead, a unit at a time. */
  private waitForLead(): void {
    while (this.unit - this.clockUnit > MAX_LEAD_UNITS) {
      this.sleepMs((this.unit - this.clockUnit - MAX_LEAD_UNITS) * ID_UNIT_MS);
      this.readClock();
    }
  }

  private readClock(): number {
    const elapsed = this.nowMs() - ID_EPOCH_MS;
    if (elapsed < 0) throw new RangeError('the clock is before the id epoch 2025-01-01');
    this.clockUnit = Math.max(this.clockUnit, Math.floor(elapsed / ID_UNIT_MS));
    return this.clockUnit;
  }
}

export interface DecodedId {
  /** The start of the 10 ms unit the id was drawn in (or borrowed). */
  time: Date;
  workerId: number;
  sequence: number;
}

export function decodeId(id: number): DecodedId {
  if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`not a 53-bit id: ${id}`);
  const unit = Math.floor(id / TIME_SHIFT);
  const rest = id - unit * TIME_SHIFT;
  return {
    time: new Date(ID_EPOCH_MS + unit * ID_UNIT_MS),
    workerId: Math.floor(rest / WORKER_SHIFT),
    sequence: rest % WORKER_SHIFT,
  };
}
