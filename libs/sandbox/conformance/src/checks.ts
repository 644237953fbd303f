/**
 * The scripted suite an operator wallet must pass (spec §6, §7, §8; decisions.md D8, D9). Each check
 * reads the balance before and after with a zero win (D10 allows them), so a wallet that answers
 * the right code but moves the wrong money fails too. A check with `schemes` runs only for an
 * operator whose `signatureScheme` is one of them.
 */
import { currencyExponent, formatAmount, tryRoundAmountHalfEven } from '@reelstream/money';
import {
  ReelstreamError,
  type BetCallback,
  type BetwinCallback,
  type CallbackRequest,
  type CallbackStatusCode,
  type CancelCallback,
  type SignatureScheme,
  type WinCallback,
} from '@reelstream/contracts';
import { describeResult, type CallResult, type WalletClient } from '@reelstream/wallet-adapters';

/** The operator's wallet answered a check wrongly: not retriable, the same call fails the same way. */
export class CheckFailed extends ReelstreamError {
  override readonly name = 'CheckFailed';
  constructor(message: string) {
    super('INTERNAL', message, { retriable: false });
  }
}

export interface SuiteContext {
  readonly client: WalletClient;
  readonly playerId: string;
  readonly currency: string;
  readonly providerId: number;
  readonly gameCode: number;
  readonly signatureScheme: SignatureScheme;
  nextId(): number;
  now(): number;
}

export interface Check {
  readonly name: string;
  readonly schemes?: readonly SignatureScheme[];
  run(context: SuiteContext): Promise<string | void>;
}

/** Whole currency units in minor units (1 unit = 100 minor for EUR, 1 for JPY). */
const units = (context: SuiteContext, count: number) => count * 10 ** currencyExponent(context.currency);
const amount = (context: SuiteContext, minor: number) => formatAmount(minor, context.currency);

/** A balance in minor units: any finite number, rounded half to even (a float balance such as 99.89999999999999 is one). */
function toMinor(context: SuiteContext, balance: number, what: string): number {
  const parsed = tryRoundAmountHalfEven(balance, context.currency);
  if (!parsed.ok) throw new CheckFailed(`${what}: balance ${balance} is not an amount of ${context.currency}`);
  return parsed.minor;
}

function expectCode(result: CallResult, expected: CallbackStatusCode | 'not OK', what: string): number | undefined {
  if (result.kind !== 'reply') throw new CheckFailed(`${what}: ${describeResult(result)}`);
  const matches = expected === 'not OK' ? result.statusCode !== 'OK' : result.statusCode === expected;
  if (!matches) throw new CheckFailed(`${what} answered ${result.statusCode}, expected ${expected}`);
  return result.balance;
}

function expectBalance(context: SuiteContext, actualMinor: number, expectedMinor: number, what: string): void {
  if (actualMinor !== expectedMinor)
    throw new CheckFailed(
      `${what}: balance ${amount(context, actualMinor)}, expected ${amount(context, expectedMinor)}`,
    );
}

const common = (context: SuiteContext) => ({
  transactionId: context.nextId(),
  playerId: context.playerId,
  roundId: context.nextId(),
  providerId: context.providerId,
  gameCode: context.gameCode,
  bonusId: 0,
  timestamp: Math.floor(context.now() / 1_000),
});
const bet = (context: SuiteContext, minor: number): BetCallback => ({
  command: 'bet',
  ...common(context),
  currency: context.currency,
  amount: amount(context, minor),
  isBonusBusy: false,
});
const betwin = (context: SuiteContext, betMinor: number, winMinor: number): BetwinCallback => ({
  command: 'betwin',
  ...common(context),
  betAmount: amount(context, betMinor),
  winAmount: amount(context, winMinor),
});
/** A cancel carries what its transaction moved: a bet's amount, or a betwin's betAmount and winAmount (D9 amended). */
const cancelOf = (
  context: SuiteContext,
  of: { transactionId: number; roundId: number },
  moved: number | { betMinor: number; winMinor: number },
): CancelCallback => ({
  command: 'cancel',
  transactionId: context.nextId(),
  refTransactionId: of.transactionId,
  playerId: context.playerId,
  roundId: of.roundId,
  providerId: context.providerId,
  gameCode: context.gameCode,
  ...(typeof moved === 'number'
    ? { amount: amount(context, moved) }
    : { betAmount: amount(context, moved.betMinor), winAmount: amount(context, moved.winMinor) }),
  bonusId: 0,
  timestamp: Math.floor(context.now() / 1_000),
});

/** X-Request-Timestamp older than this is refused under `timestamp.body` (the kit sends one 10 minutes old). */
const STALE_AFTER_SECONDS = 300;

/** Sends `callback`, expects it answered OK (`sent` names it), and returns the balance of the answer in minor units. */
async function okBalance(
  context: SuiteContext,
  callback: CallbackRequest,
  sent: string,
  what: string,
): Promise<number> {
  return toMinor(context, expectCode(await context.client.send(callback), 'OK', sent) as number, what);
}

/** The balance now, read with a win of 0 (a new transaction each time). */
export async function probeBalance(context: SuiteContext, what = 'balance probe (win of 0)'): Promise<number> {
  const probe: WinCallback = { command: 'win', ...common(context), amount: 0, isRoundFinished: true };
  return okBalance(context, probe, what, what);
}

/** Probes the balance and expects it to be `expectedMinor` (`what`: when, in the failure's words). */
async function expectBalanceNow(context: SuiteContext, expectedMinor: number, what: string): Promise<void> {
  expectBalance(context, await probeBalance(context), expectedMinor, what);
}

export const TIME_LIMITS_MS = { bet: 3_000, betwin: 3_000, cancel: 3_000, win: 4_000 } as const;

export const CHECKS: readonly Check[] = [
  {
    name: 'signature: a wrong or missing X-Request-Signature is refused',
    async run(context) {
      const before = await probeBalance(context);
      const callback = bet(context, units(context, 1));
      expectCode(
        await context.client.send(callback, 'f'.repeat(64)),
        'ERR_INTEGRITY_CHECK_FAILED',
        'a bet with a wrong signature',
      );
      expectCode(
        await context.client.send({ ...callback, transactionId: context.nextId() }, null),
        'ERR_INTEGRITY_CHECK_FAILED',
        'a bet without a signature',
      );
      await expectBalanceNow(context, before, 'after the refused bets');
    },
  },
  {
    name: 'idempotency: a replay gets the original answer and is applied once',
    async run(context) {
      const before = await probeBalance(context);
      const callback = bet(context, units(context, 1));
      const first = await okBalance(context, callback, 'a bet of 1', 'the bet');
      expectBalance(context, first, before - units(context, 1), 'the bet');
      const replay = await okBalance(context, callback, 'the same bet again', 'the replay');
      expectBalance(context, replay, first, 'the replay’s answer');
      await expectBalanceNow(context, first, 'after the replay');
    },
  },
  {
    name: 'idempotency: a reused transactionId with another body is refused',
    async run(context) {
      const callback = bet(context, units(context, 1));
      expectCode(await context.client.send(callback), 'OK', 'a bet of 1');
      const before = await probeBalance(context);
      expectCode(
        await context.client.send({ ...callback, amount: amount(context, units(context, 2)) }),
        'not OK',
        'its transactionId with amount 2',
      );
      await expectBalanceNow(context, before, 'after the reused id');
    },
  },
  {
    name: 'money: a bet over the balance is ERR_NOT_ENOUGH_MONEY and carries the balance',
    async run(context) {
      const before = await probeBalance(context);
      const balance = expectCode(
        await context.client.send(bet(context, Math.max(before, 0) + units(context, 1_000))),
        'ERR_NOT_ENOUGH_MONEY',
        'a bet of the balance + 1000',
      );
      expectBalance(context, toMinor(context, balance as number, 'the refusal'), before, 'the refusal’s balance');
      await expectBalanceNow(context, before, 'after the refused bet');
    },
  },
  {
    name: 'betwin: the bet and the win move together or not at all',
    async run(context) {
      const before = await probeBalance(context);
      expectCode(
        await context.client.send(betwin(context, Math.max(before, 0) + units(context, 1_000), units(context, 5))),
        'ERR_NOT_ENOUGH_MONEY',
        'a betwin over the balance',
      );
      await expectBalanceNow(context, before, 'after the refused betwin (no part of it may stick)');
      const after = await okBalance(
        context,
        betwin(context, units(context, 1), units(context, 2)),
        'a betwin of 1 winning 2',
        'the betwin',
      );
      expectBalance(context, after, before + units(context, 1), 'the betwin');
      await expectBalanceNow(context, before + units(context, 1), 'after the betwin');
    },
  },
  {
    name: 'cancel: an unknown transaction is answered OK and moves nothing',
    async run(context) {
      const before = await probeBalance(context);
      const never = { transactionId: context.nextId(), roundId: context.nextId() };
      expectCode(
        await context.client.send(cancelOf(context, never, units(context, 1))),
        'OK',
        'a cancel of a transaction never sent',
      );
      await expectBalanceNow(context, before, 'after the cancel');
    },
  },
  {
    name: 'cancel: a known bet is refunded once, however often it is canceled',
    async run(context) {
      const before = await probeBalance(context);
      const placed = bet(context, units(context, 3));
      expectCode(await context.client.send(placed), 'OK', 'a bet of 3');
      const cancel = cancelOf(context, placed, units(context, 3));
      const refunded = await okBalance(context, cancel, 'its cancel', 'the cancel');
      expectBalance(context, refunded, before, 'the cancel');
      expectCode(await context.client.send(cancel), 'OK', 'the same cancel again');
      expectCode(
        await context.client.send(cancelOf(context, placed, units(context, 3))),
        'OK',
        'a second cancel of the bet',
      );
      await expectBalanceNow(context, before, 'after three cancels');
    },
  },
  {
    name: 'cancel: a betwin’s cancel gives back the stake and takes back the win',
    async run(context) {
      const before = await probeBalance(context);
      const placed = betwin(context, units(context, 2), units(context, 5));
      expectCode(await context.client.send(placed), 'OK', 'a betwin of 2 winning 5');
      const cancel = cancelOf(context, placed, { betMinor: units(context, 2), winMinor: units(context, 5) });
      const reverted = await okBalance(context, cancel, 'its cancel', 'the cancel');
      expectBalance(context, reverted, before, 'after the betwin’s cancel (the whole betwin is reversed)');
      expectCode(await context.client.send(cancel), 'OK', 'the same cancel again');
      await expectBalanceNow(context, before, 'after the betwin and its cancel');
    },
  },
  {
    name: 'signature: a request with a stale X-Request-Timestamp is refused (timestamp.body)',
    schemes: ['timestamp.body'],
    async run(context) {
      const before = await probeBalance(context);
      const stale = Math.floor(context.now() / 1_000) - 2 * STALE_AFTER_SECONDS;
      expectCode(
        await context.client.send(bet(context, units(context, 1)), undefined, stale),
        'ERR_INTEGRITY_CHECK_FAILED',
        'a correctly signed bet whose X-Request-Timestamp is 10 minutes old',
      );
      await expectBalanceNow(context, before, 'after the stale bet');
    },
  },
  {
    name: 'time limits: bet, betwin and cancel answered within 3 s, win within 4 s',
    async run(context) {
      const late = context.client.calls.filter((call) => call.ms > TIME_LIMITS_MS[call.command]);
      if (late.length > 0) {
        const worst = [...late].sort((a, b) => b.ms - a.ms).slice(0, 3);
        throw new CheckFailed(
          `${late.length} answer(s) too late: ${worst.map((call) => `${call.command} ${call.transactionId} in ${(call.ms / 1_000).toFixed(2)} s (limit ${TIME_LIMITS_MS[call.command] / 1_000} s)`).join(', ')}`,
        );
      }
      const slowest = Math.max(0, ...context.client.calls.map((call) => call.ms));
      return `${context.client.calls.length} calls, slowest ${slowest} ms`;
    },
  },
];
