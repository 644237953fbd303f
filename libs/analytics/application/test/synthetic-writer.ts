/**
 * The synthetic log's writer: appends checked against the contracts, the agent oracle; and each
 * session's own seeded randomness and block of ids, so that sessions written at once draw the same
 * numbers and ids whatever order their appends finish in (the same seed writes the same events).
 */
import { randomUUID } from 'node:crypto';
import { eventToAppend, wallClockAt, type DomainEvent } from '@reelstream/contracts';
import type { EventStore } from '@reelstream/platform-ports';
import type { ExpectedAgentTotals, SyntheticOperator } from './synthetic-log.js';

export const BET = 100;
const OPENERS: ReadonlySet<string> = new Set(['GameSessionStarted', 'RoundStarted', 'WalletRequested']);
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The seed of session `index`'s own generator, spread from the log's seed by the golden-ratio step (as in splitmix). */
export const sessionSeed = (seed: number, index: number) => (seed + Math.imul(index + 1, 0x9e3779b9)) >>> 0;

/** A version-4 UUID drawn from `random`: the same draws give the same id. */
export function seededUuid(random: () => number): string {
  const hex = Array.from({ length: 4 }, () =>
    Math.floor(random() * 2 ** 32)
      .toString(16)
      .padStart(8, '0'),
  ).join('');
  const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Ids handed out in order from a block of `size`; taking more than the block holds is a bug of the generator. */
export function idBlock(first: number, size: number): () => number {
  let next = first;
  return () => {
    if (next >= first + size) throw new Error(`a session used more than its ${size} ids`);
    return next++;
  };
}

/** A round as written: what game-performance counts of it, and when (its settlement or cancel). */
export interface WrittenRound {
  roundId: number;
  operatorId: string;
  kind: 'paid' | 'free';
  streamer: boolean;
  outcome: 'settled' | 'canceled';
  atMs: number;
  betMinor: number;
  winMinor: number;
}

export class Writer {
  events = 0;
  readonly agent = new Map<string, ExpectedAgentTotals>();
  streamerPaidRounds = 0;
  readonly rounds: WrittenRound[] = [];

  constructor(readonly store: EventStore) {}

  async append(streamId: string, operatorId: string, events: readonly DomainEvent[], at: string): Promise<void> {
    const context = { correlationId: randomUUID(), causationId: randomUUID(), operatorId, occurredAt: at };
    // An event that opens its stream opens a new one: the store refuses an id used twice.
    const opens = events[0] !== undefined && OPENERS.has(events[0].type);
    await this.store.append(
      streamId,
      events.map((event) => eventToAppend(event, context)),
      { expectedRevision: opens ? 'no_stream' : 'any' },
    );
    this.events += events.length;
  }

  count(operator: SyntheticOperator, at: string, player: string, change: Partial<ExpectedAgentTotals>): void {
    const clock = wallClockAt(Date.parse(at), operator.timeZone);
    const key = `${operator.id}|${pad(clock.year, 4)}-${pad(clock.month)}-${pad(clock.day)}|${operator.currency}`;
    let totals = this.agent.get(key);
    if (!totals) {
      totals = { betsMinor: 0, winsMinor: 0, freeSpinWinsMinor: 0, bonusCostMinor: 0, players: new Set() };
      this.agent.set(key, totals);
    }
    totals.betsMinor += change.betsMinor ?? 0;
    totals.winsMinor += change.winsMinor ?? 0;
    totals.freeSpinWinsMinor += change.freeSpinWinsMinor ?? 0;
    totals.bonusCostMinor += change.bonusCostMinor ?? 0;
    if ((change.betsMinor ?? 0) !== 0 || (change.winsMinor ?? 0) !== 0) totals.players.add(player);
  }
}

export interface SessionContext {
  writer: Writer;
  /** The session's own generator: its draws do not depend on what other sessions drew meanwhile. */
  random: () => number;
  /** The next id of the session's own block: rounds, transactions and bonus calls. */
  id: () => number;
  operator: SyntheticOperator;
  playerId: string;
  token: string;
  streamer: boolean;
  clockMs: number;
}

export const tick = (session: SessionContext, ms = 150) => new Date((session.clockMs += ms)).toISOString();

export function requestBase(
  session: Pick<SessionContext, 'operator' | 'playerId'>,
  transactionId: number,
  roundId: number,
  bonusId: number,
  at: string,
) {
  const { operator, playerId } = session;
  return {
    transactionId,
    operatorId: operator.id,
    playerId,
    roundId,
    providerId: 1,
    gameId: 101,
    currency: operator.currency,
    bonusId,
    requestedAt: at,
  };
}
