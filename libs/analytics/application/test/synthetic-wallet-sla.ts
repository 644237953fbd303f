/**
 * A log of wallet calls with varied latencies, written through the real event store with every
 * event checked against its contract: bets, betwins and wins answered OK fast or slow (past their
 * limit), refused with a non-OK code, timed out (a bet then canceled; a win retried and answered
 * OK, or timed out three times and dead-lettered: a retry storm), and calls never answered. Seeded:
 * the same seed writes the same calls. It returns every attempt and transaction it wrote, from
 * which the tests compute the wallet-sla report on their own.
 */
import { randomUUID } from 'node:crypto';
import { roundStream, walletTxStream, type DomainEvent } from '@reelstream/contracts';
import type { EventStore } from '@reelstream/platform-ports';
import type { SyntheticOperator } from './synthetic-log.js';
import { mulberry32, Writer } from './synthetic-writer.js';

interface WrittenAttempt {
  operatorId: string;
  command: 'bet' | 'win' | 'betwin' | 'cancel';
  startMs: number;
  /** The answer, or undefined for a call never answered. */
  answer: { atMs: number; kind: 'ok' | 'code' | 'timeout' } | undefined;
}

interface WrittenTransaction {
  operatorId: string;
  command: 'bet' | 'win' | 'betwin' | 'cancel';
  requestedMs: number;
  attempts: WrittenAttempt[];
}

export interface SyntheticWalletLog {
  transactions: WrittenTransaction[];
}

export interface WalletSlaLogOptions {
  operators: readonly SyntheticOperator[];
  /** Transactions per operator. */
  transactions: number;
  /** The first transaction's request; the others follow `spacingMs` apart. */
  start: string;
  spacingMs: number;
  seed?: number;
}

/** A latency: mostly tens to hundreds of ms, one in ten over a second, one in twenty-five past 3 s. */
function latency(random: () => number): number {
  const draw = random();
  if (draw < 0.04) return 3_000 + Math.floor(random() * 1_500);
  if (draw < 0.14) return 1_000 + Math.floor(random() * 2_000);
  return 5 + Math.floor(random() * random() * 900);
}

type Fate = 'ok' | 'code' | 'timeout' | 'unanswered' | 'timeout_then_ok' | 'storm';

export async function writeWalletSlaLog(store: EventStore, options: WalletSlaLogOptions): Promise<SyntheticWalletLog> {
  const writer = new Writer(store);
  const random = mulberry32(options.seed ?? 29);
  const transactions: WrittenTransaction[] = [];
  let nextId = 90_000;
  const startMs = Date.parse(options.start);
  for (let index = 0; index < options.transactions; index++) {
    for (const operator of options.operators) {
      const requestedMs = startMs + index * options.spacingMs + Math.floor(random() * options.spacingMs);
      const commandDraw = random();
      const command = commandDraw < 0.45 ? 'bet' : commandDraw < 0.6 ? 'betwin' : 'win';
      const fateDraw = random();
      const fate: Fate =
        command === 'win'
          ? fateDraw < 0.08
            ? 'timeout_then_ok'
            : fateDraw < 0.12
              ? 'storm'
              : fateDraw < 0.15
                ? 'unanswered'
                : 'ok'
          : fateDraw < 0.05
            ? 'code'
            : fateDraw < 0.09
              ? 'timeout'
              : fateDraw < 0.11
                ? 'unanswered'
                : 'ok';
      const written = await writeTransaction(writer, operator, nextId, command, fate, requestedMs, random);
      nextId += 3;
      transactions.push(...written);
    }
  }
  return { transactions };
}

async function writeTransaction(
  writer: Writer,
  operator: SyntheticOperator,
  id: number,
  command: 'bet' | 'win' | 'betwin',
  fate: Fate,
  requestedMs: number,
  random: () => number,
): Promise<WrittenTransaction[]> {
  const iso = (ms: number) => new Date(ms).toISOString();
  const transactionId = id;
  const roundId = id + 1;
  const base = {
    transactionId,
    operatorId: operator.id,
    playerId: `p${id % 7}`,
    roundId,
    providerId: 1,
    gameId: 101,
    currency: operator.currency,
    bonusId: 0,
    requestedAt: iso(requestedMs),
  };
  const request =
    command === 'bet'
      ? { command, ...base, amountMinor: 100, isBonusBusy: false }
      : command === 'betwin'
        ? { command, ...base, betMinor: 100, winMinor: 50 }
        : {
            command,
            ...base,
            amountMinor: 200,
            isRoundFinished: true,
            source: { stream: roundStream(roundId), revision: 1, eventId: randomUUID() },
          };
  const events: DomainEvent[] = [
    {
      type: 'WalletRequested',
      data: { transactionId, operatorId: operator.id, command, request, requestedAt: iso(requestedMs) },
    },
  ];
  const own: WrittenTransaction = { operatorId: operator.id, command, requestedMs, attempts: [] };
  const written = [own];
  let clock = requestedMs;
  const attempt = (number: number, extra: { command?: 'cancel' } = {}) => {
    clock += 3 + Math.floor(random() * 20);
    events.push({ type: 'WalletAttempted', data: { attempt: number, ...extra, at: iso(clock) } });
    return clock;
  };
  const limit = command === 'win' ? 4_000 : 3_000;
  const timedOut = (number: number, final: boolean, startMs: number) => {
    clock = startMs + limit + 1 + Math.floor(random() * 5);
    events.push({
      type: 'WalletFailed',
      data: { error: `timeout: no reply within ${limit} ms`, attempt: number, final, at: iso(clock) },
    });
    own.attempts.push({ operatorId: operator.id, command, startMs, answer: { atMs: clock, kind: 'timeout' } });
  };
  const ok = (startMs: number) => {
    clock = startMs + Math.min(latency(random), limit - 1);
    events.push({ type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 10_000, at: iso(clock) } });
    own.attempts.push({ operatorId: operator.id, command, startMs, answer: { atMs: clock, kind: 'ok' } });
  };
  const first = attempt(1);
  switch (fate) {
    case 'ok':
      ok(first);
      break;
    case 'code':
      clock = first + (latency(random) % 800);
      events.push({
        type: 'WalletFailed',
        data: { statusCode: 'ERR_NOT_ENOUGH_MONEY', balanceMinor: 0, attempt: 1, final: true, at: iso(clock) },
      });
      own.attempts.push({ operatorId: operator.id, command, startMs: first, answer: { atMs: clock, kind: 'code' } });
      break;
    case 'timeout':
      timedOut(1, true, first);
      break;
    case 'unanswered':
      own.attempts.push({ operatorId: operator.id, command, startMs: first, answer: undefined });
      break;
    case 'timeout_then_ok': {
      timedOut(1, false, first);
      ok(attempt(2));
      break;
    }
    case 'storm': {
      timedOut(1, false, first);
      timedOut(2, false, attempt(2));
      timedOut(3, false, attempt(3));
      clock += 1;
      events.push({ type: 'WinDeadLettered', data: { attempts: 3, lastError: 'timeout', at: iso(clock) } });
      break;
    }
  }
  // A bet or betwin that failed for good is canceled: the cancel is a call of its own.
  if (command !== 'win' && (fate === 'code' || fate === 'timeout')) {
    clock += 1;
    const cancelRequestedMs = clock;
    events.push({
      type: 'CancelRequested',
      data: { cancelTransactionId: id + 2, refTransactionId: transactionId, at: iso(cancelRequestedMs) },
    });
    const start = attempt(1, { command: 'cancel' });
    clock = start + latency(random);
    events.push({ type: 'CancelSucceeded', data: { at: iso(clock), balanceMinor: 10_000 } });
    written.push({
      operatorId: operator.id,
      command: 'cancel',
      requestedMs: cancelRequestedMs,
      attempts: [{ operatorId: operator.id, command: 'cancel', startMs: start, answer: { atMs: clock, kind: 'ok' } }],
    });
  }
  await writer.append(walletTxStream(transactionId), operator.id, events, iso(requestedMs));
  return written;
}
