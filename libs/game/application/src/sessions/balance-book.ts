/**
 * What the page shows as the balance: only ever one the operator's wallet confirmed, the one its
 * last answer carried (docs/adr/0009-wallet-confirmed-balance.md). A bet's (or betwin's) answer
 * comes back to the spin; a win is sent later by an outbox (the round's, or the ledger's for a free
 * spin), so its answer does not: until the dispatcher has recorded it in the win's `walletTx`
 * stream, the win is shown apart, as pending, and the balance stays the last confirmed one. Which
 * answer is the last is the log's order of the recorded answers (the dispatcher calls a player's
 * wallet one request at a time). Kept per operator, player and currency, in this process: it is
 * only a display value. Demo sessions keep their play money here, per session. A balance no player
 * can have (game-domain's `balanceImplausibility`: negative, above the ceiling, not whole minor
 * units) is reported once, when it comes in, and not shown while it is the last answer: the player
 * sees no balance until a plausible answer comes (docs/adr/0024-implausible-wallet-balances.md).
 */
import type { Position } from '@reelstream/platform-ports';
import { addMinor, parseAmount, subtractMinor } from '@reelstream/money';
import { balanceImplausibility, type BalanceImplausibility } from '@reelstream/game-domain';
import type { ReplyRead, WalletReplies } from './wallet-replies.js';

/** An answer of the wallet whose balance is not shown, as it is reported. */
export interface ImplausibleBalanceSeen {
  readonly operatorId: string;
  readonly playerId: string;
  readonly currency: string;
  readonly transactionId: number;
  readonly balanceMinor: number;
  readonly reason: BalanceImplausibility;
}

export interface BalanceBookOptions {
  /** Entries kept per map; the least recently written goes first (it is only a display value). Default 100,000. */
  readonly capacity?: number;
  /** The highest balance shown, in currency units. Default game-domain's `DEFAULT_BALANCE_CEILING_UNITS`. */
  readonly balanceCeilingUnits?: number;
  /** Told of each answer whose balance is not shown, once, as it comes in. */
  readonly onImplausible?: (seen: ImplausibleBalanceSeen) => void;
}

interface Owner {
  readonly operatorId: string;
  readonly playerId: string;
  readonly currency: string;
}

export interface ShownBalance {
  /** The balance of the wallet's last known answer; undefined before any. */
  readonly balanceMinor: number | undefined;
  /** Wins sent whose answer is not recorded yet (not in `balanceMinor`). */
  readonly pendingWinMinor: number;
}

interface Confirmed {
  readonly transactionId: number;
  readonly balanceMinor: number;
  /** Where the answer is in the log; undefined for an answer heard over the bus and not looked up yet. */
  position: Position | undefined;
}

interface PlayerBalance {
  confirmed: Confirmed | undefined;
  /**
   * Answers whose order against `confirmed` is not known yet: one read from the log that a later
   * bus answer replaced, or a late bus answer (the resolver's, of a bet answered long ago). The next
   * refresh compares them by their positions in the log.
   */
  readonly unordered: Confirmed[];
  /** Wins sent and not answered yet, by transactionId. */
  readonly pending: Map<number, number>;
  /** The last read of a pending win's stream: the next one reads only what came after it. */
  readonly pendingReads: Map<number, ReplyRead>;
}

export class BalanceBook {
  private readonly players = new Map<string, PlayerBalance>();
  private readonly demo = new Map<string, number>();

  private readonly capacity: number;

  constructor(
    private readonly replies: WalletReplies,
    private readonly demoBalanceUnits: number,
    private readonly options: BalanceBookOptions = {},
  ) {
    this.capacity = options.capacity ?? 100_000;
  }

  /**
   * The wallet's answer to a bet or betwin, as the dispatcher replied it to this process. A spin's
   * bet is sent after every answer this process heard over the bus, so its answer is newer than
   * those; `late` (the resolver's answer to a bet of an open round) is ordered by the log instead.
   */
  answered(
    operatorId: string,
    playerId: string,
    currency: string,
    transactionId: number,
    balanceMinor: number,
    late = false,
  ): void {
    const entry = this.entry(operatorId, playerId, currency);
    const answer: Confirmed = { transactionId, balanceMinor, position: undefined };
    this.report({ operatorId, playerId, currency }, answer);
    if (late && entry.confirmed !== undefined) {
      entry.unordered.push(answer);
      return;
    }
    // An answer read from the log may be newer than this bet's (a win answered after the bet): compared later.
    if (entry.confirmed?.position !== undefined) entry.unordered.push(entry.confirmed);
    entry.confirmed = answer;
  }

  /** A win on its way to the wallet: shown as pending until its answer is recorded. A win of 0 changes nothing. */
  winSent(operatorId: string, playerId: string, currency: string, transactionId: number, winMinor: number): void {
    if (winMinor <= 0) return;
    this.entry(operatorId, playerId, currency).pending.set(transactionId, winMinor);
  }

  /** What to show now, without reading the log. */
  peek(operatorId: string, playerId: string, currency: string): ShownBalance {
    const entry = this.players.get(key(operatorId, playerId, currency));
    if (!entry) return { balanceMinor: undefined, pendingWinMinor: 0 };
    let pendingWinMinor = 0;
    for (const win of entry.pending.values()) pendingWinMinor = addMinor(pendingWinMinor, win);
    const confirmed = entry.confirmed?.balanceMinor;
    const shown = confirmed !== undefined && this.implausibility(confirmed, currency) === undefined;
    return { balanceMinor: shown ? confirmed : undefined, pendingWinMinor };
  }

  /** What to show, after looking up the answers to the pending wins (reads only when a win is pending). */
  async shown(operatorId: string, playerId: string, currency: string): Promise<ShownBalance> {
    const entry = this.players.get(key(operatorId, playerId, currency));
    if (entry && (entry.pending.size > 0 || entry.unordered.length > 0))
      await this.refresh(entry, { operatorId, playerId, currency });
    return this.peek(operatorId, playerId, currency);
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

  private async refresh(entry: PlayerBalance, owner: Owner): Promise<void> {
    const answers: Confirmed[] = entry.unordered.splice(0);
    for (const transactionId of [...entry.pending.keys()]) {
      const read = await this.replies.replyOf(transactionId, entry.pendingReads.get(transactionId));
      const { reply } = read;
      if (reply.kind === 'not_yet') {
        entry.pendingReads.set(transactionId, read);
        continue;
      }
      entry.pending.delete(transactionId);
      entry.pendingReads.delete(transactionId);
      if (reply.kind !== 'answered') continue;
      const answer: Confirmed = { transactionId, balanceMinor: reply.balanceMinor, position: reply.position };
      this.report(owner, answer);
      answers.push(answer);
    }
    if (answers.length === 0) return;
    for (const answer of answers) await this.locate(answer);
    // The answer shown now may have no position yet: look it up, unless another answer replaces it meanwhile.
    for (;;) {
      const current = entry.confirmed;
      if (current === undefined || current.position !== undefined) break;
      await this.locate(current);
      if (entry.confirmed === current) break;
    }
    for (const answer of answers) entry.confirmed = this.later(entry.confirmed, answer);
  }

  private implausibility(balanceMinor: number, currency: string): BalanceImplausibility | undefined {
    return balanceImplausibility(balanceMinor, currency, this.options.balanceCeilingUnits);
  }

  /** Tells `onImplausible` of an answer coming in whose balance will not be shown. */
  private report(owner: Owner, answer: Confirmed): void {
    const reason = this.implausibility(answer.balanceMinor, owner.currency);
    if (reason !== undefined)
      this.options.onImplausible?.({
        ...owner,
        transactionId: answer.transactionId,
        balanceMinor: answer.balanceMinor,
        reason,
      });
  }

  /** Sets where a bus answer is in the log (its record is always there: the dispatcher replies from it). */
  private async locate(answer: Confirmed): Promise<void> {
    if (answer.position !== undefined) return;
    const { reply } = await this.replies.replyOf(answer.transactionId);
    if (reply.kind === 'answered') answer.position = reply.position;
  }

  /** The later of two answers in the log; one whose place is unknown loses to one whose place is known. */
  private later(current: Confirmed | undefined, answer: Confirmed): Confirmed {
    if (current === undefined) return answer;
    if (answer.position === undefined) return current;
    if (current.position === undefined) return answer;
    return this.replies.comparePositions(answer.position, current.position) > 0 ? answer : current;
  }

  private entry(operatorId: string, playerId: string, currency: string): PlayerBalance {
    const name = key(operatorId, playerId, currency);
    const found = this.players.get(name) ?? {
      confirmed: undefined,
      unordered: [],
      pending: new Map(),
      pendingReads: new Map(),
    };
    this.write(this.players, name, found);
    return found;
  }

  private write<Value>(map: Map<string, Value>, entry: string, value: Value): void {
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
