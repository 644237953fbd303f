/**
 * A log as the platform writes it, made fast and seeded: launch sessions (some streamers', some
 * demo), paid rounds with their bet and win transactions (refusals, retries, a time-out canceled,
 * dead-lettered wins) and free-spin bonus calls, every event checked against its contract on the
 * way in (eventToAppend). It counts, as it writes, what the agent report must then say: an
 * oracle built apart from the folds. Used by the analytics tests and `npm run bench:replay`.
 */
import { randomUUID } from 'node:crypto';
import {
  eventToAppend,
  playerBonusStream,
  roundStream,
  sessionStream,
  walletTxStream,
  wallClockAt,
  type DomainEvent,
} from '@reelstream/contracts';
import type { EventStore } from '@reelstream/ports';

export interface SyntheticOperator {
  id: string;
  currency: string;
  timeZone: string;
}

export interface SyntheticLogOptions {
  operators: readonly SyntheticOperator[];
  /** Sessions written; every 10th is a streamer's, every 25th a demo. */
  sessions: number;
  roundsPerSession: number;
  /** Every 4th real session also gets a 3-spin Free Spin Bonus. */
  start?: string;
  seed?: number;
  /** Sessions written at once (group commit batches them). */
  concurrency?: number;
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
  tokens: string[];
}

const BET = 100;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

class Writer {
  events = 0;
  private nextId = 1_000;
  readonly agent = new Map<string, ExpectedAgentTotals>();
  streamerPaidRounds = 0;
  readonly tokens: string[] = [];

  constructor(
    readonly store: EventStore,
    readonly random: () => number,
  ) {}

  id(): number {
    return this.nextId++;
  }

  async append(streamId: string, operatorId: string, events: readonly DomainEvent[], at: string): Promise<void> {
    const context = { correlationId: randomUUID(), causationId: randomUUID(), operatorId, occurredAt: at };
    await this.store.append(
      streamId,
      events.map((event) => eventToAppend(event, context)),
      { expectedRevision: 'any' },
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

interface SessionContext {
  writer: Writer;
  operator: SyntheticOperator;
  playerId: string;
  token: string;
  streamer: boolean;
  clockMs: number;
}

const tick = (session: SessionContext, ms = 150) => new Date((session.clockMs += ms)).toISOString();

function requestBase(session: SessionContext, transactionId: number, roundId: number, bonusId: number, at: string) {
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

/** A win callback delivered: OK at once, OK on the second try, or dead-lettered after three. */
async function deliverWin(
  session: SessionContext,
  roundId: number,
  amountMinor: number,
  bonusId: number,
  source: { stream: string; revision: number },
): Promise<string | undefined> {
  const { writer, operator } = session;
  const transactionId = writer.id();
  const at = tick(session);
  const request = {
    command: 'win' as const,
    ...requestBase(session, transactionId, roundId, bonusId, at),
    amountMinor,
    isRoundFinished: true,
    source: { ...source, eventId: randomUUID() },
  };
  const fate = writer.random();
  let paidAt: string | undefined;
  const events: DomainEvent[] = [
    {
      type: 'WalletRequested',
      data: { transactionId, operatorId: operator.id, command: 'win', request, requestedAt: at },
    },
    { type: 'WalletAttempted', data: { attempt: 1, at: tick(session, 10) } },
  ];
  if (fate < 0.02) {
    for (const attempt of [1, 2, 3]) {
      if (attempt > 1) events.push({ type: 'WalletAttempted', data: { attempt, at: tick(session, 500) } });
      events.push({ type: 'WalletFailed', data: { error: 'timeout', attempt, final: false, at: tick(session, 3500) } });
    }
    events.push({ type: 'WinDeadLettered', data: { attempts: 3, lastError: 'timeout', at: tick(session, 1) } });
  } else {
    if (fate < 0.1) {
      events.push({
        type: 'WalletFailed',
        data: { error: 'timeout', attempt: 1, final: false, at: tick(session, 3500) },
      });
      events.push({ type: 'WalletAttempted', data: { attempt: 2, at: tick(session, 200) } });
    }
    paidAt = tick(session, 25);
    events.push({ type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 50_000, at: paidAt } });
  }
  await writer.append(walletTxStream(transactionId), operator.id, events, at);
  return paidAt;
}

/** A paid round: bet accepted (or refused, or timed out and canceled), outcome, win. */
async function paidRound(session: SessionContext): Promise<void> {
  const { writer, operator, playerId, token, streamer } = session;
  const roundId = writer.id();
  const betTx = writer.id();
  const startedAt = tick(session);
  const profile = streamer ? 'streamer' : 'standard';
  await writer.append(
    roundStream(roundId),
    operator.id,
    [
      {
        type: 'RoundStarted',
        data: {
          roundId,
          sessionToken: token,
          operatorId: operator.id,
          playerId,
          providerId: 1,
          gameId: 101,
          kind: 'paid',
          currency: operator.currency,
          betMinor: BET,
          bonusId: 0,
          rtpProfile: profile,
          startedAt,
          transactionId: betTx,
          isBonusBusy: false,
        },
      },
    ],
    startedAt,
  );
  const request = {
    command: 'bet' as const,
    ...requestBase(session, betTx, roundId, 0, startedAt),
    amountMinor: BET,
    isBonusBusy: false,
  };
  const fate = writer.random();
  const events: DomainEvent[] = [
    {
      type: 'WalletRequested',
      data: { transactionId: betTx, operatorId: operator.id, command: 'bet', request, requestedAt: startedAt },
    },
    { type: 'WalletAttempted', data: { attempt: 1, at: tick(session, 5) } },
  ];
  if (fate < 0.03) {
    events.push({
      type: 'WalletFailed',
      data: { statusCode: 'ERR_NOT_ENOUGH_MONEY', balanceMinor: 0, attempt: 1, final: true, at: tick(session, 20) },
    });
  } else if (fate < 0.05) {
    const cancelTx = writer.id();
    events.push(
      { type: 'WalletFailed', data: { error: 'timeout', attempt: 1, final: true, at: tick(session, 3500) } },
      {
        type: 'CancelRequested',
        data: { cancelTransactionId: cancelTx, refTransactionId: betTx, at: tick(session, 1) },
      },
      { type: 'WalletAttempted', data: { attempt: 1, command: 'cancel', at: tick(session, 2) } },
      { type: 'CancelSucceeded', data: { at: tick(session, 30), balanceMinor: 50_000 } },
    );
  } else {
    events.push({ type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 50_000, at: tick(session, 20) } });
  }
  await writer.append(walletTxStream(betTx), operator.id, events, startedAt);
  if (fate < 0.05) {
    const canceledAt = tick(session);
    await writer.append(
      roundStream(roundId),
      operator.id,
      [
        {
          type: 'RoundCanceled',
          data: { roundId, reason: fate < 0.03 ? 'bet_rejected:ERR_NOT_ENOUGH_MONEY' : 'bet_timeout', canceledAt },
        },
      ],
      canceledAt,
    );
    return;
  }
  const betAt = (events[events.length - 1]?.data as { at: string }).at;
  if (streamer) writer.streamerPaidRounds += 1;
  else writer.count(operator, betAt, playerId, { betsMinor: BET });
  const winMinor = writer.random() < 0.3 ? BET * (1 + Math.floor(writer.random() * 5)) : 0;
  const settledAt = tick(session);
  const draws = [0, 1, 2, 3, 4].map(() => Math.floor(writer.random() * 2 ** 32));
  const winTransactionId = winMinor > 0 ? writer.id() : undefined;
  await writer.append(
    roundStream(roundId),
    operator.id,
    [
      {
        type: 'RoundSettled',
        data: {
          roundId,
          outcome: { modelId: 'lotus-garden', profile, betMinor: BET, draws },
          winMinor,
          settledAt,
          ...(winTransactionId ? { winTransactionId } : {}),
        },
      },
    ],
    settledAt,
  );
  if (winMinor === 0) return;
  const paidAt = await deliverWin(session, roundId, winMinor, 0, { stream: roundStream(roundId), revision: 1 });
  if (paidAt && !streamer) writer.count(operator, paidAt, playerId, { winsMinor: winMinor });
}

/** A 3-spin Free Spin Bonus played to the end on game 101. */
async function freeSpinBonus(session: SessionContext): Promise<void> {
  const { writer, operator, playerId, token, streamer } = session;
  const issueId = writer.id();
  const stream = playerBonusStream(operator.id, playerId);
  const registeredAt = tick(session);
  const spins = 3;
  const terms = {
    issueId,
    platformId: `bonus-${issueId}`,
    operatorId: operator.id,
    playerId,
    providerId: 1,
    gameIds: [101],
    bonusType: 1 as const,
    currency: operator.currency,
    callAmountMinor: 10_000,
    spinAmount: spins,
    baseBetAmountMinor: BET,
  };
  const expireAt = new Date(session.clockMs + 86_400_000).toISOString();
  await writer.append(
    stream,
    operator.id,
    [{ type: 'BonusCallRegistered', data: { ...terms, expireAt, registeredAt } }],
    registeredAt,
  );
  let totalWinMinor = 0;
  for (let spinNumber = 1; spinNumber <= spins; spinNumber++) {
    const roundId = writer.id();
    const startedAt = tick(session);
    await writer.append(
      stream,
      operator.id,
      [
        {
          type: 'FreeSpinStarted',
          data: {
            issueId,
            roundId,
            gameId: 101,
            spinNumber,
            baseBetAmountMinor: BET,
            winCapLeftMinor: 10_000 - totalWinMinor,
            startedAt,
          },
        },
      ],
      startedAt,
    );
    const rawWinMinor = writer.random() < 0.5 ? BET * 2 : 0;
    await writer.append(
      roundStream(roundId),
      operator.id,
      [
        {
          type: 'RoundStarted',
          data: {
            roundId,
            sessionToken: token,
            operatorId: operator.id,
            playerId,
            providerId: 1,
            gameId: 101,
            kind: 'free',
            currency: operator.currency,
            betMinor: BET,
            bonusId: issueId,
            rtpProfile: streamer ? 'streamer' : 'standard',
            startedAt,
          },
        },
        {
          type: 'RoundSettled',
          data: {
            roundId,
            outcome: {
              modelId: 'lotus-garden',
              profile: streamer ? 'streamer' : 'standard',
              betMinor: BET,
              draws: [1, 2, 3],
            },
            winMinor: rawWinMinor,
            settledAt: tick(session, 5),
          },
        },
      ],
      startedAt,
    );
    totalWinMinor += rawWinMinor;
    const settledAt = tick(session);
    const winTx = writer.id();
    await writer.append(
      stream,
      operator.id,
      [
        {
          type: 'FreeSpinSettled',
          data: {
            issueId,
            roundId,
            gameId: 101,
            spinNumber,
            rawWinMinor,
            winMinor: rawWinMinor,
            totalWinMinor,
            spinsLeft: spins - spinNumber,
            settledAt,
            transactionId: winTx,
          },
        },
      ],
      settledAt,
    );
    if (!streamer) writer.count(operator, settledAt, playerId, { bonusCostMinor: BET });
    const paidAt = await deliverWin(session, roundId, rawWinMinor, issueId, { stream, revision: 2 * spinNumber });
    if (paidAt && !streamer)
      writer.count(operator, paidAt, playerId, { winsMinor: rawWinMinor, freeSpinWinsMinor: rawWinMinor });
  }
  const completedAt = tick(session);
  await writer.append(
    stream,
    operator.id,
    [{ type: 'BonusCallCompleted', data: { issueId, reason: 'spins_used', totalWinMinor, completedAt } }],
    completedAt,
  );
}

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
  const token = `tok_${String(index).padStart(8, '0')}_${'x'.repeat(16)}`;
  const session: SessionContext = {
    writer,
    operator,
    playerId: `p${index % 97}`,
    token,
    streamer,
    clockMs: startMs + index * 45_000,
  };
  const startedAt = tick(session);
  writer.tokens.push(token);
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
  const writer = new Writer(store, mulberry32(options.seed ?? 13));
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
    tokens: writer.tokens,
  };
}
