/**
 * Messages of the wallet-dispatcher (docs/architecture.md "Data"): requests on `wallet.requests` from the
 * game-server and the bonus-ledger, replies on `wallet.replies`, parked wins on
 * `wallet.dead-letters` (D11). Money in integer minor units; the dispatcher converts to
 * currency units when it writes the callback.
 */
import * as z from 'zod';
import { callbackStatusCode } from '../callbacks/reply.js';
import {
  catalogId,
  currencyCode,
  isoInstant,
  longId,
  minorAmount,
  operatorPlayer,
  positiveMinorAmount,
  signedMinorAmount,
} from '../shared/primitives.js';
import { bonusIdValue } from '../shared/ids.js';

const common = {
  transactionId: longId.meta({
    description: 'Idempotency key of the callback: a redelivered request is the same transaction.',
  }),
  ...operatorPlayer,
  roundId: longId,
  providerId: catalogId,
  gameId: catalogId,
  currency: currencyCode,
  bonusId: bonusIdValue.meta({ description: 'The issueId of the bonus call the round belongs to, or 0.' }),
  requestedAt: isoInstant,
};

/** The spec's 3 s for a bet or betwin (§6.1, §6.3, §8), counted from the moment the spin was accepted. */
export const STAKE_WINDOW_MS = 3_000;

/** The deadline of a bet or betwin requested at `requestedAt`: the same instant however often it is rebuilt. */
export function stakeDeadlineOf(requestedAt: string): string {
  return new Date(Date.parse(requestedAt) + STAKE_WINDOW_MS).toISOString();
}

/**
 * When the bet or betwin must have been answered by (`requestedAt` + 3 s, fixed when the spin is
 * accepted): a dispatcher that takes it later never sends it; it records it as timed out and sends
 * the cancel (D9). Optional: a request written before deadlines were carried has `requestedAt` +
 * 3 s (`stakeDeadlineOf`).
 */
const stakeDeadline = isoInstant.optional().meta({
  description:
    'The instant the operator must have answered by (requestedAt + 3 s); not sent after it. Absent in older messages: requestedAt + 3 s.',
});

export const walletBetRequest = z.strictObject({
  command: z.literal('bet'),
  ...common,
  deadline: stakeDeadline,
  amountMinor: positiveMinorAmount,
  /** D21: the player had an active bonus call when the bet was placed. */
  isBonusBusy: z.boolean(),
});

/**
 * The stored event a win comes from: a paid round's `RoundSettled` in `round-{roundId}`
 * or a free spin's `FreeSpinSettled` in `playerBonus-{operatorId}-{playerId}`, named by stream,
 * revision and event id so the dispatcher reads that one event and checks the win against it.
 */
const winSource = z.strictObject({
  stream: z.string().min(1).max(500),
  revision: z.number().int().min(0),
  eventId: z.string().min(1).max(100),
});
export type WinSource = z.infer<typeof winSource>;

export const walletWinRequest = z.strictObject({
  command: z.literal('win'),
  ...common,
  /** May be 0 (a free spin without a win still sends its win, D10). */
  amountMinor: minorAmount,
  isRoundFinished: z.boolean(),
  /** Optional in the schema so that a win without it is recorded as refused, not parked as unreadable: the dispatcher sends no win without it. */
  source: winSource.optional(),
});

export const walletBetwinRequest = z.strictObject({
  command: z.literal('betwin'),
  ...common,
  deadline: stakeDeadline,
  betMinor: positiveMinorAmount,
  winMinor: minorAmount,
});

export const walletRequest = z.discriminatedUnion('command', [walletBetRequest, walletWinRequest, walletBetwinRequest]);
export type WalletBetRequest = z.infer<typeof walletBetRequest>;
export type WalletWinRequest = z.infer<typeof walletWinRequest>;
export type WalletBetwinRequest = z.infer<typeof walletBetwinRequest>;
export type WalletRequest = z.infer<typeof walletRequest>;
export type WalletCommand = WalletRequest['command'];

export const walletReply = z
  .strictObject({
    transactionId: longId,
    statusCode: callbackStatusCode,
    /** The operator's balance after the transaction, when it answered with a valid body. */
    balanceMinor: signedMinorAmount.optional(),
    /** true when the round was canceled because the bet or betwin failed (a cancel callback follows). */
    canceled: z.boolean(),
    /** Why a non-OK status: the operator's code, a malformed reply, a time-out. */
    reason: z.string().max(1000).optional(),
  })
  .superRefine((reply, ctx) => {
    if (reply.statusCode === 'OK' && reply.balanceMinor === undefined) {
      ctx.addIssue({ code: 'custom', path: ['balanceMinor'], message: 'an OK reply carries the balance' });
    }
    if (reply.statusCode === 'OK' && reply.canceled) {
      ctx.addIssue({ code: 'custom', path: ['canceled'], message: 'an OK transaction is not canceled' });
    }
  });
export type WalletReply = z.infer<typeof walletReply>;

/**
 * Why a win was not delivered (D11): its attempts failed; its operator is not configured
 * here; its transactionId already names another request; or the record refused the step.
 */
const WIN_DEAD_LETTER_REASONS = [
  'delivery_failed',
  'operator_not_configured',
  'transaction_id_conflict',
  'decision_refused',
] as const;
export const winDeadLetterReason = z.enum(WIN_DEAD_LETTER_REASONS);
export type WinDeadLetterReason = z.infer<typeof winDeadLetterReason>;

export const walletDeadLetter = z.strictObject({
  transactionId: longId,
  ...operatorPlayer,
  request: walletRequest,
  reason: winDeadLetterReason,
  /** 0 when the win was dead-lettered before any call (operator not configured, transactionId reused). */
  attempts: z.number().int().min(0),
  lastError: z.string().min(1).max(1000),
  deadLetteredAt: isoInstant,
});
export type WalletDeadLetter = z.infer<typeof walletDeadLetter>;

/**
 * Re-drive of a dead-lettered win (D11), sent by `npm run wallet:redrive` on `wallet.requests`
 * (keyed by playerId, so it keeps its place among the player's requests) with reply-to: the
 * dispatcher delivers the recorded win again with the same transactionId. The dispatcher's own
 * schedule (docs/adr/0016-scheduled-win-redrive.md) sends it with `deadLetter`: the re-drive of
 * that dead letter only, done already if the record has moved past it.
 */
export const walletRedriveRequest = z.strictObject({
  command: z.literal('redrive'),
  transactionId: longId,
  ...operatorPlayer,
  requestedAt: isoInstant,
  /** Scheduled re-drive: which dead letter of the win (1 = the first) it re-drives. */
  deadLetter: z.number().int().min(1).optional(),
});
export type WalletRedriveRequest = z.infer<typeof walletRedriveRequest>;

/** Everything the dispatcher accepts on `wallet.requests`. */
export const walletRequestsMessage = z.discriminatedUnion('command', [
  walletBetRequest,
  walletWinRequest,
  walletBetwinRequest,
  walletRedriveRequest,
]);
export type WalletRequestsMessage = z.infer<typeof walletRequestsMessage>;

/**
 * A cancel (D9) to deliver, on `wallet.cancels`: the walletTx stream of the failed bet or betwin
 * holds the cancel's own transactionId and its history; this message only says which one.
 */
export const walletCancelDelivery = z.strictObject({
  refTransactionId: longId,
  cancelTransactionId: longId,
  ...operatorPlayer,
});
export type WalletCancelDelivery = z.infer<typeof walletCancelDelivery>;
