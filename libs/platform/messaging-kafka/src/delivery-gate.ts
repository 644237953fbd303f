/**
 * Lets deliveries in until the consumer stops, then waits for the ones inside to finish.
 *
 * A consumer closes this gate first (batches in flight finish and commit while kafkajs still owns
 * the group membership they commit under) and stops kafkajs after, which leaves the group. Batches
 * kafkajs hands over once the gate is closed are not worked on: left uncommitted, they go to the
 * group's next consumer.
 */
export class DeliveryGate {
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  get isClosed(): boolean {
    return this.closed;
  }

  /** Runs `delivery` unless the gate is closed; false when it was turned away. */
  async admit(delivery: () => Promise<void>): Promise<boolean> {
    if (this.closed) return false;
    const running = delivery();
    this.inFlight.add(running);
    try {
      await running;
    } finally {
      this.inFlight.delete(running);
    }
    return true;
  }

  /** Turns further deliveries away and resolves once those already admitted have settled. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
  }
}
