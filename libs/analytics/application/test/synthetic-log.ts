/**
 * A log as the platform writes it, made fast and seeded: launch sessions (some streamers', some
 * demo), paid rounds with their bet and win transactions (refusals, retries, a time-out canceled,
 * dead-lettered wins) and free-spin bonus calls, every event checked against its contract on the
 * way in (eventToAppend). It counts, as it writes, what the agent report must then say: an
 * oracle built apart from the folds. Used by the analytics tests and `npm run bench:replay`.
 *
 * The same options write the same events (streams, types, data, times; not the envelope's ids):
 * each session draws from its own generator and takes its ids from its own block, so sessions
 * written at once do not share what they draw in the order their appends happen to finish.
 */
import { sessionStream } from '@reelstream/contracts';
import type { EventStore } from '@reelstream/platform-ports';
import { freeSpinBonus, paidRound } from './synthetic-rounds.js';
import {
  idBlock,
  mulberry32,
  sessionSeed,
  tick,
  Writer,
  type SessionContext,
  type WrittenRound,
} from './synthetic-writer.js';

export interface SyntheticOperator {
  id: string;
  currency: string;
  timeZone: string;
}

export interface SyntheticLogOptions {
  operators: readonly SyntheticOperator[];
  /** Sessions written; every 10th is a streamer's, every 25th a demo, every 4th also gets a 3-spin Free Spin Bonus. */
  sessions: number;
  roundsPerSession: number;
  /** When the first session starts (ISO-8601); sessions start 45 s apart. */
  start?: string;
  seed?: number;
  /** Sessions written at once (group commit batches them). */
  concurrency?: number;
  /**
   * The first round, transaction and bonus id, and the first session's number (its token): a log
   * written in several calls passes the previous call's `next`, so no id or token is used twice.
   * Session `i` takes its ids from a block of its own, `idsPerSession` from `id + i * idsPerSession`.
   */
  first?: { id: number; session: number };
}

/** What the agent report must show per `operator|day|currency` (streamers excluded). */
export interface ExpectedAgentTotals {
  betsMinor: number;
  winsMinor: number;
  freeSpinWinsMinor: number;
  bonusCostMinor: number;
  players: Set<string>;
}

export interface SyntheticLogResult {
  events: number;
  agent: Map<string, ExpectedAgentTotals>;
  streamerPaidRounds: number;
  /** Every round settled or canceled, as written, by round id (the same whatever order the appends finished in). */
  rounds: WrittenRound[];
  /** The sessions' tokens, in session order. */
  tokens: string[];
  /** What the next call on the same store passes as `first`. */
  next: { id: number; session: number };
}

const FIRST_ID = 1_000;

/**
 * Ids one session may take: a bonus call's (its own, and per spin its round, its settlement and
 * its win) and four per paid round (round, bet, then the win named and delivered, or a cancel).
 */
const idsPerSession = (options: SyntheticLogOptions) => 1 + 3 * 3 + 4 * options.roundsPerSession;

const tokenOf = (number: number) => `tok_${String(number).padStart(8, '0')}_${'x'.repeat(16)}`;

async function writeSession(
  writer: Writer,
  options: SyntheticLogOptions,
  index: number,
  startMs: number,
): Promise<void> {
  const operator = options.operators[index % options.operators.length];
  if (!operator) throw new Error('give at least one operator');
  const streamer = index % 10 === 9;
  const demo = index % 25 === 24;
  const number = (options.first?.session ?? 0) + index;
  const token = tokenOf(number);
  const span = idsPerSession(options);
  const session: SessionContext = {
    writer,
    random: mulberry32(sessionSeed(options.seed ?? 13, number)),
    id: idBlock((options.first?.id ?? FIRST_ID) + index * span, span),
    operator,
    playerId: `p${index % 97}`,
    token,
    streamer,
    clockMs: startMs + index * 45_000,
  };
  const startedAt = tick(session);
  await writer.append(
    sessionStream(token),
    operator.id,
    [
      {
        type: 'GameSessionStarted',
        data: {
          token,
          operatorId: operator.id,
          playerId: session.playerId,
          providerId: 1,
          gameId: 101,
          language: 'en',
          returnUrl: 'https://casino.example/lobby',
          isStreamer: streamer,
          currency: operator.currency,
          startedAt,
          expiresAt: new Date(session.clockMs + 3_600_000).toISOString(),
          ...(demo ? { demo: true } : {}),
        },
      },
    ],
    startedAt,
  );
  if (demo) return;
  if (index % 4 === 0) await freeSpinBonus(session);
  for (let round = 0; round < options.roundsPerSession; round++) await paidRound(session);
  const endedAt = tick(session);
  await writer.append(
    sessionStream(token),
    operator.id,
    [{ type: 'GameSessionEnded', data: { token, reason: 'closed', endedAt } }],
    endedAt,
  );
}

/** Writes the log; sessions run `concurrency` at a time, each one's events in order. */
export async function writeSyntheticLog(store: EventStore, options: SyntheticLogOptions): Promise<SyntheticLogResult> {
  const writer = new Writer(store);
  const firstSession = options.first?.session ?? 0;
  const startMs = Date.parse(options.start ?? '2026-11-20T20:00:00.000Z');
  const concurrency = options.concurrency ?? 32;
  let next = 0;
  const worker = async () => {
    while (next < options.sessions) await writeSession(writer, options, next++, startMs);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return {
    events: writer.events,
    agent: writer.agent,
    streamerPaidRounds: writer.streamerPaidRounds,
    rounds: [...writer.rounds].sort((a, b) => a.roundId - b.roundId),
    tokens: Array.from({ length: options.sessions }, (_, index) => tokenOf(firstSession + index)),
    next: {
      id: (options.first?.id ?? FIRST_ID) + options.sessions * idsPerSession(options),
      session: firstSession + options.sessions,
    },
  };
}
