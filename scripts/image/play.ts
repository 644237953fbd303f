/**
 * What `npm run test:image` plays through the containers, over HTTP only, with the e2e suite's
 * clients: the operator registers 3 free spins and launches the game, the player spends them and
 * then pays one spin, and the operator's wallet (the sandbox's admin API) must show exactly that:
 * one applied win per free spin for its round and amount, the paid round's bet and win, and the
 * balance that adds up.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  OperatorClient,
  PlayerClient,
  SandboxAdmin,
  type SandboxTransaction,
} from '../../apps/platform/test/support/clients.js';
import { E2E_OPERATOR, type Platform } from './containers.js';

const OPENING = 10;
const BET = 0.2;
const minor = (amount: number) => Math.round(amount * 100);

function check(condition: boolean, what: string, detail: unknown): void {
  if (!condition) throw new Error(`${what}: ${JSON.stringify(detail)}`);
}

export interface Played {
  readonly playerId: string;
  readonly issueId: number;
  readonly transactions: number;
  readonly balanceMinor: number;
}

export async function playFreeSpinsThenPaid(platform: Platform): Promise<Played> {
  const operator = new OperatorClient(() => platform.gatewayUrl, { ...E2E_OPERATOR });
  const wallet = new SandboxAdmin(() => platform.sandboxUrl, E2E_OPERATOR.id);
  const playerId = `image_${Date.now().toString(36)}`;
  await wallet.setBalance(playerId, OPENING, E2E_OPERATOR.currency);

  const issueId = await operator.registerFreeSpins({ playerId, spins: 3 });
  const game = new PlayerClient(() => platform.gameUrl, await operator.launch(playerId));
  const free: { roundId: number; winMinor: number }[] = [];
  for (let spin = 1; spin <= 3; spin++) {
    const answer = await game.spin({ issueId });
    const data = answer.body?.data;
    check(
      answer.status === 200 && data?.kind === 'free' && data.bonus?.spinNumber === spin,
      `free spin ${spin}`,
      answer.body,
    );
    free.push({ roundId: Number(data.roundId), winMinor: minor(Number(data.win)) });
  }
  const paidAnswer = await game.spin({ bet: BET });
  const paid = paidAnswer.body?.data;
  check(paidAnswer.status === 200 && paid?.kind === 'paid', 'paid spin', paidAnswer.body);
  const paidRound = Number(paid.roundId);
  const paidWinMinor = minor(Number(paid.win));

  // The wallet calls are asynchronous (outbox → bus → dispatcher): wait until every round is applied.
  const expectedBalance =
    minor(OPENING) + free.reduce((sum, { winMinor }) => sum + winMinor, 0) - minor(BET) + paidWinMinor;
  const deadline = Date.now() + 30_000;
  let transactions: SandboxTransaction[] = [];
  let balance = Number.NaN;
  for (;;) {
    transactions = await wallet.transactions(playerId);
    balance = await wallet.balanceMinor(playerId, E2E_OPERATOR.currency);
    const roundsSeen = new Set(transactions.filter((row) => row.applied).map((row) => row.roundId));
    if (
      balance === expectedBalance &&
      [...free.map(({ roundId }) => roundId), paidRound].every((id) => roundsSeen.has(id))
    )
      break;
    if (Date.now() > deadline)
      throw new Error(
        `the sandbox ledger did not settle: balance ${balance} (expected ${expectedBalance}), ${JSON.stringify(transactions)}`,
      );
    await sleep(200);
  }

  for (const { roundId, winMinor } of free) {
    const rows = transactions.filter((row) => row.roundId === roundId);
    check(
      rows.length === 1 &&
        rows[0]?.command === 'win' &&
        rows[0].applied &&
        rows[0].creditMinor === winMinor &&
        rows[0].debitMinor === 0,
      `free round ${roundId}: one applied win of ${winMinor}`,
      rows,
    );
  }
  const paidRows = transactions.filter((row) => row.roundId === paidRound && row.applied);
  const debit = paidRows.reduce((sum, row) => sum + row.debitMinor, 0);
  const credit = paidRows.reduce((sum, row) => sum + row.creditMinor, 0);
  check(
    debit === minor(BET) && credit === paidWinMinor,
    `paid round ${paidRound}: bet ${minor(BET)}, win ${paidWinMinor}`,
    paidRows,
  );
  check(
    transactions.every((row) => row.applied && row.canceledBy === null),
    'nothing refused or canceled',
    transactions,
  );
  // The bonus's state is the ledger's projection: it may trail the spins' answers by a moment.
  for (;;) {
    const status = await operator.bonus(issueId);
    if (status.body?.data?.status === 'completed' && status.body.data.spinsUsed === 3) break;
    check(Date.now() < deadline, 'the bonus is completed', status.body);
    await sleep(200);
  }
  return { playerId, issueId, transactions: transactions.length, balanceMinor: balance };
}
