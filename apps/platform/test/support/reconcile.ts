/**
 * The money check of the e2e suite: what the operator's wallet (the sandbox's own SQLite file)
 * applied, against what the platform's event log says happened. Every settled round's bet and
 * win applied exactly once with the logged amounts, every canceled round's bet never applied or
 * refunded, every free spin's win applied once with bonusId = issueId, nothing applied that the
 * log does not know, and each balance = opening − bets + wins of the log.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openEventStore } from '@reelstream/platform-backends';
import {
  freeSpinSettledData,
  roundCanceledData,
  roundSettledData,
  roundStartedData,
  type RoundStarted,
} from '@reelstream/contracts';
import type { RecordedEvent } from '@reelstream/platform-ports';
import type { SandboxTransaction } from './clients.js';

type RoundStartedData = RoundStarted['data'];

interface LoggedRound {
  started: RoundStartedData;
  settled?: { winMinor: number; winTransactionId: number | undefined };
  canceled?: { reason: string };
}

interface LoggedFreeSpin {
  issueId: number;
  roundId: number;
  spinNumber: number;
  winMinor: number;
  transactionId: number;
}

export interface EventLog {
  rounds: Map<number, LoggedRound>;
  freeSpins: LoggedFreeSpin[];
}

/** The rounds and free spins of the log in `dataDir`'s SQLite file, or at `eventStoreUrl` when given. */
export async function readEventLog(dataDir: string, eventStoreUrl?: string): Promise<EventLog> {
  const { store } = await openEventStore(eventStoreUrl ?? `sqlite:${join(dataDir, 'reelstream.db')}`);
  const events: RecordedEvent[] = [];
  try {
    for (let page: RecordedEvent[] = []; ;) {
      const from = page.at(-1)?.position;
      page = await store.readAll({
        maxCount: 2_000,
        filter: { streamPrefixes: ['round-', 'playerBonus-'] },
        ...(from === undefined ? {} : { fromPosition: from }),
      });
      events.push(...page);
      if (page.length < 2_000) break;
    }
  } finally {
    await store.close();
  }
  const log: EventLog = { rounds: new Map(), freeSpins: [] };
  for (const event of events) {
    if (event.type === 'RoundStarted') {
      const started = roundStartedData.parse(event.data);
      log.rounds.set(started.roundId, { started });
    } else if (event.type === 'RoundSettled') {
      const settled = roundSettledData.parse(event.data);
      const round = log.rounds.get(settled.roundId);
      if (round) round.settled = { winMinor: settled.winMinor, winTransactionId: settled.winTransactionId };
    } else if (event.type === 'RoundCanceled') {
      const canceled = roundCanceledData.parse(event.data);
      const round = log.rounds.get(canceled.roundId);
      if (round) round.canceled = { reason: canceled.reason };
    } else if (event.type === 'FreeSpinSettled') {
      const { issueId, roundId, spinNumber, winMinor, transactionId } = freeSpinSettledData.parse(event.data);
      log.freeSpins.push({ issueId, roundId, spinNumber, winMinor, transactionId });
    }
  }
  return log;
}

/** One callback the sandbox applied (or refused), with the body it received. */
export interface ReceivedCallback extends Omit<SandboxTransaction, 'cancelEffect'> {
  /** From the body as received (D7: a string of digits by default). */
  bonusId: number;
}

/** The sandbox's ledger, read from its own file (the admin API leaves out the request bodies). */
export function readSandboxLedger(dataDir: string, operatorId: string): ReceivedCallback[] {
  const db = new Database(join(dataDir, 'operator-sandbox.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db
      .prepare<[string], Record<string, unknown>>(
        `SELECT transaction_id, command, player_id, round_id, debit_minor, credit_minor, ref_transaction_id, status_code, applied, canceled_by, request_json
         FROM sandbox_transactions WHERE operator_id = ? ORDER BY seq`,
      )
      .all(operatorId);
    return rows.map((row) => ({
      transactionId: Number(row['transaction_id']),
      command: row['command'] as ReceivedCallback['command'],
      playerId: String(row['player_id']),
      roundId: Number(row['round_id']),
      debitMinor: Number(row['debit_minor']),
      creditMinor: Number(row['credit_minor']),
      refTransactionId: row['ref_transaction_id'] === null ? null : Number(row['ref_transaction_id']),
      statusCode: String(row['status_code']),
      applied: row['applied'] === 1,
      canceledBy: row['canceled_by'] === null ? null : Number(row['canceled_by']),
      bonusId: Number((JSON.parse(String(row['request_json'])) as { bonusId?: unknown }).bonusId),
    }));
  } finally {
    db.close();
  }
}

/**
 * Every disagreement between the wallet and the log for these players (opening balances in minor
 * units), as readable lines; empty when the money is right. Also reports rounds still open.
 */
export function reconcile(
  log: EventLog,
  ledger: readonly ReceivedCallback[],
  balances: ReadonlyMap<string, { openingMinor: number; balanceMinor: number }>,
): string[] {
  const problems: string[] = [];
  const rows = ledger.filter((row) => balances.has(row.playerId));
  const byId = new Map(rows.map((row) => [row.transactionId, row]));
  const explained = new Set<number>();
  const expected = new Map([...balances.keys()].map((player) => [player, balances.get(player)?.openingMinor ?? 0]));
  const move = (player: string, minor: number) => expected.set(player, (expected.get(player) ?? 0) + minor);

  for (const [roundId, round] of log.rounds) {
    const { started } = round;
    if (!balances.has(started.playerId)) continue;
    const at = `round ${roundId} (${started.kind}, ${started.playerId})`;
    if (!round.settled && !round.canceled) {
      problems.push(`${at} is still open`);
      continue;
    }
    if (started.kind === 'free') continue;
    const bet = started.transactionId === undefined ? undefined : byId.get(started.transactionId);
    if (bet) explained.add(bet.transactionId);
    if (round.settled) {
      if (!bet?.applied || bet.canceledBy !== null || bet.debitMinor !== started.betMinor)
        problems.push(
          `${at} is settled, but its bet was not applied once for ${started.betMinor}: ${JSON.stringify(bet)}`,
        );
      move(started.playerId, -started.betMinor + round.settled.winMinor);
      const winId = round.settled.winTransactionId;
      const win = winId === undefined ? undefined : byId.get(winId);
      if (winId !== undefined) {
        explained.add(winId);
        if (!win?.applied || win.creditMinor !== round.settled.winMinor || win.roundId !== roundId) {
          problems.push(`${at} won ${round.settled.winMinor}, but the wallet has ${JSON.stringify(win)}`);
        }
      } else if (bet?.command !== 'betwin') {
        problems.push(`${at} is settled without a win transaction`);
      }
    } else if (bet?.applied && bet.canceledBy === null) {
      problems.push(
        `${at} is canceled (${round.canceled?.reason}), but its bet stayed applied: ${JSON.stringify(bet)}`,
      );
    }
    if (bet?.canceledBy !== null && bet?.canceledBy !== undefined) explained.add(bet.canceledBy);
  }

  for (const spin of log.freeSpins) {
    const win = byId.get(spin.transactionId);
    const round = log.rounds.get(spin.roundId);
    if (!round || !balances.has(round.started.playerId)) continue;
    explained.add(spin.transactionId);
    move(round.started.playerId, spin.winMinor);
    const at = `free spin ${spin.spinNumber} of bonus ${spin.issueId} (round ${spin.roundId})`;
    if (!win) problems.push(`${at}: the wallet never applied its win ${spin.transactionId}`);
    else if (
      !win.applied ||
      win.command !== 'win' ||
      win.creditMinor !== spin.winMinor ||
      win.bonusId !== spin.issueId ||
      win.roundId !== spin.roundId
    ) {
      problems.push(
        `${at}: expected a win of ${spin.winMinor} with bonusId ${spin.issueId}, the wallet has ${JSON.stringify(win)}`,
      );
    }
  }

  for (const row of rows) {
    // A cancel of a bet the wallet never applied (refused or never arrived) moves nothing; every other row must be the log's.
    if (explained.has(row.transactionId)) continue;
    if (row.command === 'cancel' && byId.get(row.refTransactionId ?? -1)?.applied !== true) continue;
    if (row.command === 'bet' && !row.applied) continue;
    problems.push(`the wallet applied a transaction the event log does not account for: ${JSON.stringify(row)}`);
  }

  for (const [player, { balanceMinor }] of balances) {
    if (expected.get(player) !== balanceMinor)
      problems.push(`${player}: the wallet's balance is ${balanceMinor}, the log says ${expected.get(player)}`);
  }
  return problems;
}
