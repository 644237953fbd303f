/**
 * What the page shows as the balance. The operator's wallet is the only source of truth and it
 * reports a balance in every bet and betwin answer; the game-server remembers the last one per
 * player and currency, plus the wins sent since (a win is credited by the dispatcher later and
 * its answer does not come back here). Demo sessions keep their play money here, per session.
 */
import { addMinor, parseAmount, subtractMinor } from '@reelstream/money';

export class BalanceBook {
  private readonly reported = new Map<string, number>();
  private readonly demo = new Map<string, number>();

  constructor(
    private readonly demoBalanceUnits: number,
    /** Entries kept per map; the least recently written goes first (it is only a display value). */
    private readonly capacity = 100_000,
  ) {}

  /** The last balance reported for the player, with the wins since; undefined before any answer. */
  lastKnown(operatorId: string, playerId: string, currency: string): number | undefined {
    return this.reported.get(key(operatorId, playerId, currency));
  }

  report(operatorId: string, playerId: string, currency: string, balanceMinor: number): void {
    this.write(this.reported, key(operatorId, playerId, currency), balanceMinor);
  }

  /** A win on its way to the wallet: added to the last known balance when there is one. */
  credit(operatorId: string, playerId: string, currency: string, winMinor: number): number | undefined {
    const current = this.lastKnown(operatorId, playerId, currency);
    if (current === undefined) return undefined;
    const next = addMinor(current, winMinor);
    this.report(operatorId, playerId, currency, next);
    return next;
  }

  demoBalance(token: string, currency: string): number {
    return this.demo.get(token) ?? parseAmount(this.demoBalanceUnits, currency);
  }

  /** Applies a demo round and returns the new balance; undefined (nothing changes) when the play money does not cover the bet. */
  settleDemo(token: string, currency: string, betMinor: number, winMinor: number): number | undefined {
    const before = this.demoBalance(token, currency);
    if (before < betMinor) return undefined;
    const after = addMinor(subtractMinor(before, betMinor), winMinor);
    this.write(this.demo, token, after);
    return after;
  }

  private write(map: Map<string, number>, entry: string, value: number): void {
    map.delete(entry);
    if (map.size >= this.capacity) {
      const oldest = map.keys().next();
      if (!oldest.done) map.delete(oldest.value);
    }
    map.set(entry, value);
  }
}

function key(operatorId: string, playerId: string, currency: string): string {
  return `${operatorId}\u0000${playerId}\u0000${currency}`;
}
