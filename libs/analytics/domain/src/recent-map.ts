/**
 * A map that forgets what the log stopped talking about, so a replay's memory follows the log's
 * recent activity, not its length. Two generations: every `horizonMs` of log time the current
 * one becomes the previous one and the previous one is dropped; reading an entry of the previous
 * generation moves it back to the current one. An entry neither written nor read for two horizons
 * is forgotten (kept between one and two horizons).
 */
export class RecentMap<Key, Value> {
  private current = new Map<Key, Value>();
  private previous = new Map<Key, Value>();
  private rotateAtMs: number | undefined;
  /** Entries forgotten so far. */
  forgotten = 0;

  constructor(private readonly horizonMs: number) {}

  get size(): number {
    return this.current.size + this.previous.size;
  }

  get(key: Key): Value | undefined {
    const value = this.current.get(key);
    if (value !== undefined || this.previous.size === 0) return value;
    const old = this.previous.get(key);
    if (old !== undefined) {
      this.previous.delete(key);
      this.current.set(key, old);
    }
    return old;
  }

  has(key: Key): boolean {
    return this.get(key) !== undefined;
  }

  set(key: Key, value: Value): this {
    this.previous.delete(key);
    this.current.set(key, value);
    return this;
  }

  delete(key: Key): void {
    this.current.delete(key);
    this.previous.delete(key);
  }

  /** Moves the log clock on: rotates the generations when a horizon has passed. */
  advance(nowMs: number): void {
    if (this.rotateAtMs === undefined) {
      this.rotateAtMs = nowMs + this.horizonMs;
      return;
    }
    if (nowMs < this.rotateAtMs) return;
    this.forgotten += this.previous.size;
    this.previous = this.current;
    this.current = new Map();
    this.rotateAtMs = nowMs + this.horizonMs;
  }
}
