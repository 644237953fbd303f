import { randomFillSync } from 'node:crypto';

/**
 * Event ids the store draws itself (an append without `eventId`): UUIDv7 (RFC 9562), so the
 * unique index on `event_id` grows at its end like the table instead of taking every insert at a
 * random place (each random insert dirties its own index page, and a commit writes every dirty
 * page to the WAL). 48 bits of Unix milliseconds, then a 12-bit counter in `rand_a` (RFC 9562
 * §6.2, method 1) so ids drawn in one millisecond still grow, then 62 random bits. A clock that
 * steps back, or more than 4,096 ids in one millisecond, borrows the next millisecond: ids drawn
 * by one store only grow. Ids from several processes interleave; uniqueness rests on the random
 * bits, as with v4.
 */
export class TimeOrderedUuids {
  private lastMs = -1;
  private counter = 0;
  private readonly pool = Buffer.alloc(8 * 512);
  private poolOffset = this.pool.length;

  constructor(private readonly nowMs: () => number = Date.now) {}

  next(): string {
    let ms = this.nowMs();
    if (ms > this.lastMs) {
      this.lastMs = ms;
      this.counter = 0;
    } else if (this.counter < 0xfff) {
      ms = this.lastMs;
      this.counter += 1;
    } else {
      ms = ++this.lastMs;
      this.counter = 0;
    }
    if (this.poolOffset === this.pool.length) {
      randomFillSync(this.pool);
      this.poolOffset = 0;
    }
    const random = this.pool.subarray(this.poolOffset, this.poolOffset + 8);
    this.poolOffset += 8;
    const time = ms.toString(16).padStart(12, '0');
    const version = (0x7000 | this.counter).toString(16);
    const variant = ((((random[0] as number) & 0x3f) | 0x80) * 256 + (random[1] as number)).toString(16);
    const tail = random.subarray(2).toString('hex');
    return `${time.slice(0, 8)}-${time.slice(8)}-${version}-${variant}-${tail}`;
  }
}
