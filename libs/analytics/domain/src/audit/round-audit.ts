/**
 * `reelstream audit round`: a round recomputed from its recorded RNG draws on the game model it
 * names, and held against everything that says what it paid — the round's own events, the
 * bonus-ledger's free-spin and steered-spin events and the wallet transactions that moved the money. Pure: the
 * caller reads the streams (`auditInputIds` says which).
 */
import {
  canonicalJson,
  type PlayerBonusEvent,
  type RoundEvent,
  type RoundStarted,
  ReelstreamError,
  type WalletTxEvent,
} from '@reelstream/contracts';
import { capWin, replayRound, ReplayError, roundRecordSchema, type RoundOutcome } from '@reelstream/game-domain';
import { foldWalletTransaction, type WalletTransaction } from './wallet-transaction.js';

export interface RoundAuditInput {
  readonly roundId: number;
  readonly roundEvents: readonly RoundEvent[];
  /** The player's `playerBonus` stream (only read for a free round or one steered by a Regular Bonus Call). */
  readonly bonusEvents: readonly PlayerBonusEvent[];
  /** The `walletTx` streams named by `auditInputIds`, by transactionId. */
  readonly walletTx: ReadonlyMap<number, readonly WalletTxEvent[]>;
  /** The model the catalogue plays the round's game with; undefined when the catalogue does not have the game. */
  readonly catalogModelId: string | undefined;
}

interface AuditCheck {
  readonly name: string;
  /** `mismatch` fails the audit; `note` is said but is not a mismatch (a win still owed, a round still open). */
  readonly result: 'ok' | 'mismatch' | 'note';
  readonly detail: string;
}

interface AuditedTransaction {
  readonly transactionId: number;
  readonly command: 'bet' | 'win' | 'betwin' | 'cancel';
  /** Signed change to the player's balance, minor units. */
  readonly amountMinor: number;
  readonly outcome: string;
  readonly refTransactionId: number | null;
}

export interface RoundAudit {
  readonly roundId: number;
  readonly operatorId: string;
  readonly playerId: string;
  readonly gameId: number;
  readonly kind: 'paid' | 'free';
  /**
   * How the round was played: `paid` (an ordinary paid spin, drawn freely), `bonus_steered` (a paid
   * spin steered by a Regular Bonus Call, docs/adr/0012-regular-bonus-call-outcomes.md) or `free` (a
   * free spin of a Free Spin Bonus).
   */
  readonly play: RoundPlay;
  /** The bonus call of a free or steered round; 0 for an ordinary paid one. */
  readonly bonusId: number;
  /** The top-up a steered round paid on top of its reels (the one that completed the bonus call), else 0. */
  readonly topUpMinor: number;
  readonly currency: string;
  readonly status: 'settled' | 'canceled' | 'open';
  readonly modelId: string | null;
  readonly profile: string | null;
  readonly draws: readonly number[];
  readonly betMinor: number;
  /** What the draws produce (before a free spin's cap); null when the round has no outcome. */
  readonly recomputedWinMinor: number | null;
  /** What the round's RoundSettled says was won (capped for a free spin). */
  readonly recordedWinMinor: number | null;
  /** Net change to the player's balance of the transactions the operator applied. */
  readonly paidNetMinor: number;
  readonly checks: readonly AuditCheck[];
  readonly transactions: readonly AuditedTransaction[];
  readonly matches: boolean;
}

type RoundPlay = 'paid' | 'bonus_steered' | 'free';

function roundPlayOf(round: Pick<RoundStarted['data'], 'kind' | 'bonusId'>): RoundPlay {
  if (round.kind === 'free') return 'free';
  return round.bonusId === 0 ? 'paid' : 'bonus_steered';
}

/** The store holds no such round: not retriable. */
export class RoundNotFoundError extends ReelstreamError {
  override readonly name = 'RoundNotFoundError';
  constructor(message: string) {
    super('ROUND_NOT_FOUND', message, { retriable: false });
  }
}

/** The transactions a round's money went through, as far as its events and its free spin name them. */
export function auditInputIds(roundEvents: readonly RoundEvent[], bonusEvents: readonly PlayerBonusEvent[]): number[] {
  const ids: number[] = [];
  for (const event of roundEvents) {
    if (event.type === 'RoundStarted' && event.data.transactionId !== undefined) ids.push(event.data.transactionId);
    if (event.type === 'RoundSettled' && event.data.winTransactionId !== undefined)
      ids.push(event.data.winTransactionId);
  }
  const roundId = roundEvents[0]?.data.roundId;
  for (const event of bonusEvents)
    if (event.type === 'FreeSpinSettled' && event.data.roundId === roundId) ids.push(event.data.transactionId);
  return [...new Set(ids)];
}

class Checks {
  readonly list: AuditCheck[] = [];
  expect(name: string, ok: boolean, detail: string): void {
    this.list.push({ name, result: ok ? 'ok' : 'mismatch', detail });
  }
  note(name: string, detail: string): void {
    this.list.push({ name, result: 'note', detail });
  }
}

/** Replays the record, or says why it cannot be replayed. */
function recompute(record: unknown, checks: Checks): RoundOutcome | undefined {
  const parsed = roundRecordSchema.safeParse(record);
  if (!parsed.success) {
    checks.expect('record', false, `the stored record is malformed: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
    return undefined;
  }
  try {
    const outcome = replayRound(parsed.data);
    checks.expect('record', true, `${parsed.data.draws.length} draws replay on ${parsed.data.modelId}`);
    return outcome;
  } catch (error) {
    if (!(error instanceof ReplayError)) throw error;
    checks.expect('record', false, `${error.reason}: ${error.message}`);
    return undefined;
  }
}

function checkRecordAgainstRound(
  started: RoundStarted['data'],
  record: { modelId: string; profile: string; betMinor: number },
  catalogModelId: string | undefined,
  checks: Checks,
): void {
  if (catalogModelId === undefined) checks.note('model', `the catalogue has no game ${started.gameId}`);
  else
    checks.expect(
      'model',
      record.modelId === catalogModelId,
      `record plays ${record.modelId}; the catalogue plays game ${started.gameId} with ${catalogModelId}`,
    );
  checks.expect(
    'profile',
    record.profile === started.rtpProfile,
    `record ${record.profile}, round ${started.rtpProfile}`,
  );
  checks.expect('stake', record.betMinor === started.betMinor, `record ${record.betMinor}, round ${started.betMinor}`);
}

function auditedTransactions(transactions: readonly WalletTransaction[]): AuditedTransaction[] {
  return transactions.flatMap((tx) => {
    const own: AuditedTransaction = {
      transactionId: tx.transactionId,
      command: tx.request.command,
      amountMinor: tx.amountMinor,
      outcome: tx.deadLettered ? `dead_lettered (${tx.outcome})` : tx.outcome,
      refTransactionId: null,
    };
    if (!tx.cancel) return [own];
    const reversal: AuditedTransaction = {
      transactionId: tx.cancel.cancelTransactionId,
      command: 'cancel',
      amountMinor: -tx.amountMinor,
      outcome: tx.cancel.outcome,
      refTransactionId: tx.transactionId,
    };
    return [own, reversal];
  });
}

/** The money the operator applied, net: a transaction and the cancel that reverted it count nothing. */
function paidNet(transactions: readonly WalletTransaction[]): number {
  return transactions
    .filter((tx) => tx.outcome === 'applied' && tx.cancel?.outcome !== 'applied')
    .reduce((sum, tx) => sum + tx.amountMinor, 0);
}

export function auditRound(input: RoundAuditInput): RoundAudit {
  const started = input.roundEvents.find((event) => event.type === 'RoundStarted');
  if (!started) throw new RoundNotFoundError(`round ${input.roundId} is not in the log`);
  const settled = input.roundEvents.find((event) => event.type === 'RoundSettled');
  const canceled = input.roundEvents.find((event) => event.type === 'RoundCanceled');
  const round = started.data;
  const checks = new Checks();
  const transactions = auditInputIds(input.roundEvents, input.bonusEvents).flatMap((id) => {
    const tx = foldWalletTransaction(input.walletTx.get(id) ?? []);
    return tx ? [tx] : [];
  });

  const record = settled?.data.outcome ?? round.outcome;
  if (settled && round.outcome !== undefined)
    checks.expect(
      'record',
      canonicalJson(round.outcome) === canonicalJson(settled.data.outcome),
      'RoundStarted and RoundSettled carry the same record',
    );
  const outcome = record === undefined ? undefined : recompute(record, checks);
  if (outcome) checkRecordAgainstRound(round, outcome, input.catalogModelId, checks);

  const expectedNet = checkPayment(input, round, settled?.data, outcome, transactions, checks);
  const net = paidNet(transactions);
  const settledOrCanceled = settled ? 'settled' : canceled ? 'canceled' : 'open';
  if (settledOrCanceled === 'open') checks.note('status', 'the round has not ended yet');
  // Final: every transaction was applied for good, or a cancel that the operator confirmed reverted it.
  const allFinal = transactions.every((tx) =>
    tx.cancel ? tx.cancel.outcome === 'applied' : tx.outcome === 'applied' || tx.outcome === 'refused',
  );
  if (expectedNet !== undefined && allFinal)
    checks.expect('money', net === expectedNet, `the operator applied ${net}, the outcome pays ${expectedNet} net`);
  else if (expectedNet !== undefined)
    checks.note('money', `applied so far ${net} of ${expectedNet} net: a transaction has no OK (see below)`);

  return {
    roundId: round.roundId,
    operatorId: round.operatorId,
    playerId: round.playerId,
    gameId: round.gameId,
    kind: round.kind,
    play: roundPlayOf(round),
    bonusId: round.bonusId,
    topUpMinor: settled?.data.topUpMinor ?? 0,
    currency: round.currency,
    status: settledOrCanceled,
    modelId: outcome?.modelId ?? null,
    profile: outcome?.profile ?? null,
    draws: outcome?.draws ?? [],
    betMinor: round.betMinor,
    recomputedWinMinor: outcome?.winMinor ?? null,
    recordedWinMinor: settled?.data.winMinor ?? null,
    paidNetMinor: net,
    checks: checks.list,
    transactions: auditedTransactions(transactions),
    matches: checks.list.every((check) => check.result !== 'mismatch'),
  };
}

type Settled = Extract<RoundEvent, { type: 'RoundSettled' }>['data'];

/** The checks of what was paid against the outcome; returns the net the round should move (undefined: unknown). */
function checkPayment(
  input: RoundAuditInput,
  round: RoundStarted['data'],
  settled: Settled | undefined,
  outcome: RoundOutcome | undefined,
  transactions: readonly WalletTransaction[],
  checks: Checks,
): number | undefined {
  const byCommand = (command: string) => transactions.find((tx) => tx.request.command === command);
  if (!settled) {
    const stake = byCommand('bet') ?? byCommand('betwin');
    // A stake the operator took, or may have taken (no answer), must be given back by a cancel (D9).
    if (round.kind === 'paid' && (stake?.outcome === 'applied' || stake?.outcome === 'unknown')) {
      if (stake.cancel?.outcome === 'pending')
        checks.note('cancel', `the cancel of ${stake.request.command} ${stake.transactionId} is still being retried`);
      else
        checks.expect(
          'cancel',
          stake.cancel?.outcome === 'applied',
          `the ${stake.request.command} of a canceled round is reverted by cancel ${stake.cancel?.cancelTransactionId ?? '(none)'}`,
        );
    }
    if (round.kind === 'free') checks.note('free spin', 'a canceled free spin pays nothing');
    return outcome && round.kind === 'paid' && !stake ? undefined : 0;
  }
  if (!outcome) return undefined;
  if (round.kind === 'free') return checkFreeSpin(input, settled, outcome, byCommand('win'), checks);
  const topUpMinor = round.bonusId === 0 ? 0 : checkSteeredSpin(input, settled, outcome, checks);
  if (round.bonusId === 0)
    checks.expect('top-up', settled.topUpMinor === undefined, 'an ordinary paid round has no top-up');
  checks.expect(
    'win',
    settled.winMinor === outcome.winMinor + topUpMinor,
    `recorded ${settled.winMinor}, draws pay ${outcome.winMinor}${topUpMinor > 0 ? ` + top-up ${topUpMinor}` : ''}`,
  );
  const betwin = byCommand('betwin');
  if (betwin?.request.command === 'betwin') {
    checks.expect(
      'betwin',
      betwin.request.betMinor === round.betMinor && betwin.request.winMinor === outcome.winMinor,
      `betwin ${betwin.transactionId} carries bet ${betwin.request.betMinor} win ${betwin.request.winMinor}`,
    );
    return outcome.winMinor - round.betMinor;
  }
  const bet = byCommand('bet');
  checks.expect(
    'bet',
    bet?.request.command === 'bet' && bet.request.amountMinor === round.betMinor,
    `bet ${bet?.transactionId ?? 'missing'} takes ${bet ? -bet.amountMinor : 'nothing'}`,
  );
  checkWinTransaction(byCommand('win'), settled.winMinor, checks);
  return outcome.winMinor + topUpMinor - round.betMinor;
}

/**
 * A paid round steered by a Regular Bonus Call: the bonus stream's decision for it names the same
 * outcome, the reels' win and the top-up the round was settled with. Returns the round's top-up.
 */
function checkSteeredSpin(input: RoundAuditInput, settled: Settled, outcome: RoundOutcome, checks: Checks): number {
  const decision = input.bonusEvents.find(
    (event) => event.type === 'RegularBonusSpinSettled' && event.data.roundId === input.roundId,
  );
  if (decision?.type !== 'RegularBonusSpinSettled') {
    checks.expect('steered spin', false, 'the bonus stream has no steered-spin decision for this round');
    return settled.topUpMinor ?? 0;
  }
  // The round's own top-up goes into its win check; a decision that says otherwise is this check's mismatch.
  const { data } = decision;
  checks.expect(
    'steered spin',
    canonicalJson(data.outcome) === canonicalJson(settled.outcome) &&
      data.reelWinMinor === outcome.winMinor &&
      data.topUpMinor === (settled.topUpMinor ?? 0) &&
      data.winMinor === settled.winMinor,
    `bonus call ${data.issueId} spin ${data.spinNumber}: reels ${data.reelWinMinor} + top-up ${data.topUpMinor}, same outcome as the round`,
  );
  return settled.topUpMinor ?? 0;
}

function checkFreeSpin(
  input: RoundAuditInput,
  settled: Settled,
  outcome: RoundOutcome,
  win: WalletTransaction | undefined,
  checks: Checks,
): number {
  const spinStarted = input.bonusEvents.find(
    (event) => event.type === 'FreeSpinStarted' && event.data.roundId === input.roundId,
  );
  const spinSettled = input.bonusEvents.find(
    (event) => event.type === 'FreeSpinSettled' && event.data.roundId === input.roundId,
  );
  if (spinStarted?.type !== 'FreeSpinStarted' || spinSettled?.type !== 'FreeSpinSettled') {
    checks.expect('free spin', false, 'the bonus-ledger has no started and settled free spin for this round');
    return settled.winMinor;
  }
  const capped = capWin(outcome.winMinor, spinStarted.data.winCapLeftMinor).winMinor;
  checks.expect(
    'win',
    spinSettled.data.rawWinMinor === outcome.winMinor,
    `the ledger saw ${spinSettled.data.rawWinMinor}, draws pay ${outcome.winMinor}`,
  );
  checks.expect(
    'win cap',
    settled.winMinor === capped && spinSettled.data.winMinor === capped,
    `capped at ${spinStarted.data.winCapLeftMinor} left: ${capped}; round ${settled.winMinor}, ledger ${spinSettled.data.winMinor}`,
  );
  checks.expect(
    'base bet',
    spinStarted.data.baseBetAmountMinor === outcome.betMinor,
    `bonus base bet ${spinStarted.data.baseBetAmountMinor}, record ${outcome.betMinor}`,
  );
  checkWinTransaction(win, capped, checks);
  return capped;
}

function checkWinTransaction(win: WalletTransaction | undefined, winMinor: number, checks: Checks): void {
  if (!win || win.request.command !== 'win') {
    checks.expect('win transaction', false, 'no win transaction in the log');
    return;
  }
  checks.expect(
    'win transaction',
    win.request.amountMinor === winMinor,
    `win ${win.transactionId} carries ${win.request.amountMinor}`,
  );
  if (win.deadLettered)
    checks.note('win delivery', `win ${win.transactionId} is dead-lettered: owed, not paid (npm run wallet:redrive)`);
}
