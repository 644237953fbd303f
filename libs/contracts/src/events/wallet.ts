/**
 * Events of a `walletTx` stream: the delivery history of one wallet transaction (and of the
 * cancel that reverts it), so a redelivered request is recognised and every attempt is audited.
 */
import * as z from 'zod';
import { CALLBACK_COMMANDS } from '../callbacks/requests.js';
import { callbackStatusCode } from '../callbacks/reply.js';
import {
  walletBetRequest,
  walletBetwinRequest,
  walletRequest,
  walletWinRequest,
  winDeadLetterReason,
} from '../commands/wallet.js';
import { isoInstant, longId, operatorId, signedMinorAmount } from '../shared/primitives.js';
import { eventOf } from './metadata.js';

const attempt = z.number().int().min(1);
/** Which callback an attempt or outcome is about; absent means the stream's own transaction. */
const callbackCommand = z.enum(CALLBACK_COMMANDS).optional();

export const walletRequestedData = z
  .strictObject({
    transactionId: longId,
    operatorId,
    command: z.enum(['bet', 'win', 'betwin']),
    request: walletRequest,
    requestedAt: isoInstant,
  })
  .superRefine((data, ctx) => {
    if (data.request?.command !== data.command)
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'command must be the command of the request' });
    if (data.request?.transactionId !== data.transactionId) {
      ctx.addIssue({
        code: 'custom',
        path: ['transactionId'],
        message: 'transactionId must be the transactionId of the request',
      });
    }
    if (data.request?.operatorId !== data.operatorId)
      ctx.addIssue({
        code: 'custom',
        path: ['operatorId'],
        message: 'operatorId must be the operatorId of the request',
      });
  });

export const walletAttemptedData = z.strictObject({
  attempt,
  command: callbackCommand,
  at: isoInstant,
  /** The previous call of this attempt has no recorded outcome (a crash): sent again, same transactionId. */
  recovery: z.boolean().optional(),
  /** The first attempt of a re-drive of a dead-lettered win (D11). */
  redrive: z.boolean().optional(),
  /** That re-drive was the dispatcher's schedule's, not a person's (docs/adr/0016-scheduled-win-redrive.md). */
  scheduled: z.boolean().optional(),
});

/**
 * The balance exactly as the operator's reply carried it, when it had more decimals than the
 * currency (a wallet computing in binary floating point: 99.89999999999999); `balanceMinor` is it
 * rounded half to even, and is what reelstream shows, compares and reconciles.
 */
const balanceSent = z.number().finite().optional();

export const walletSucceededData = z.strictObject({
  statusCode: z.literal('OK'),
  balanceMinor: signedMinorAmount,
  balanceSent,
  command: callbackCommand,
  at: isoInstant,
});

export const walletFailedData = z
  .strictObject({
    /** The operator's non-OK code, when it answered validly. */
    statusCode: callbackStatusCode.exclude(['OK']).optional(),
    /** Time-out, network error or malformed reply. */
    error: z.string().min(1).max(1000).optional(),
    /** The balance the operator answered with alongside its non-OK code (spec §7: errors carry it too). */
    balanceMinor: signedMinorAmount.optional(),
    balanceSent,
    /** 0: a bet or betwin never sent, its deadline had passed when the dispatcher took it. */
    attempt: z.number().int().min(0),
    /** true when no further attempt follows (bet/betwin: the round is canceled; win: dead-lettered). */
    final: z.boolean(),
    command: callbackCommand,
    at: isoInstant,
  })
  .superRefine((data, ctx) => {
    if (data.statusCode === undefined && data.error === undefined)
      ctx.addIssue({ code: 'custom', path: ['statusCode'], message: 'give the statusCode or the error' });
  });

export const cancelRequestedData = z
  .strictObject({ cancelTransactionId: longId, refTransactionId: longId, at: isoInstant })
  .superRefine((data, ctx) => {
    if (data.cancelTransactionId === data.refTransactionId) {
      ctx.addIssue({
        code: 'custom',
        path: ['cancelTransactionId'],
        message: 'a cancel has its own transactionId (D9)',
      });
    }
  });

export const cancelSucceededData = z.strictObject({
  at: isoInstant,
  /** The operator's balance after the cancel, when its reply carried one. */
  balanceMinor: signedMinorAmount.optional(),
  balanceSent,
});

export const winDeadLetteredData = z.strictObject({
  /** Attempts made before; 0 when no call was made (the operator is not configured, the transactionId is taken). */
  attempts: z.number().int().min(0),
  lastError: z.string().min(1).max(1000),
  at: isoInstant,
  /** Absent in events written before reasons were recorded: `delivery_failed`. */
  reason: winDeadLetterReason.optional(),
  /** The dead-lettered win when it is not the stream's own request (its transactionId names another one). */
  request: walletWinRequest.optional(),
});

/** Why a win was refused: it names no source event, its source is not there, or the source says otherwise. */
const WIN_REFUSAL_REASONS = ['no_source', 'source_not_found', 'source_mismatch'] as const;

/**
 * A win the dispatcher would not send: it does not match the settled round or free spin
 * it must come from. Recorded beside the transaction's own history, which it leaves unchanged.
 */
export const winRefusedData = z.strictObject({
  request: walletWinRequest,
  reason: z.enum(WIN_REFUSAL_REASONS),
  detail: z.string().min(1).max(1000),
  at: isoInstant,
});

/** Why a bet or betwin was refused: its round has no RoundStarted, or the RoundStarted says otherwise. */
const STAKE_REFUSAL_REASONS = ['source_not_found', 'source_mismatch'] as const;

/**
 * A bet or betwin the dispatcher would not send: it does not match the RoundStarted of its round
 * (operator, player, round, transaction, amounts). Recorded beside the transaction's own history,
 * which it leaves unchanged, like `WinRefused`.
 */
export const stakeRefusedData = z.strictObject({
  request: z.discriminatedUnion('command', [walletBetRequest, walletBetwinRequest]),
  reason: z.enum(STAKE_REFUSAL_REASONS),
  detail: z.string().min(1).max(1000),
  at: isoInstant,
});

export const WalletEventTypes = {
  WalletRequested: 'WalletRequested',
  WalletAttempted: 'WalletAttempted',
  WalletSucceeded: 'WalletSucceeded',
  WalletFailed: 'WalletFailed',
  CancelRequested: 'CancelRequested',
  CancelSucceeded: 'CancelSucceeded',
  WinDeadLettered: 'WinDeadLettered',
  WinRefused: 'WinRefused',
  StakeRefused: 'StakeRefused',
} as const;

const walletRequested = eventOf(WalletEventTypes.WalletRequested, walletRequestedData);
const walletAttempted = eventOf(WalletEventTypes.WalletAttempted, walletAttemptedData);
const walletSucceeded = eventOf(WalletEventTypes.WalletSucceeded, walletSucceededData);
const walletFailed = eventOf(WalletEventTypes.WalletFailed, walletFailedData);
const cancelRequested = eventOf(WalletEventTypes.CancelRequested, cancelRequestedData);
const cancelSucceeded = eventOf(WalletEventTypes.CancelSucceeded, cancelSucceededData);
const winDeadLettered = eventOf(WalletEventTypes.WinDeadLettered, winDeadLetteredData);
const winRefused = eventOf(WalletEventTypes.WinRefused, winRefusedData);
const stakeRefused = eventOf(WalletEventTypes.StakeRefused, stakeRefusedData);
export const walletTxEvent = z.discriminatedUnion('type', [
  walletRequested,
  walletAttempted,
  walletSucceeded,
  walletFailed,
  cancelRequested,
  cancelSucceeded,
  winDeadLettered,
  winRefused,
  stakeRefused,
]);
export type WalletTxEvent = z.infer<typeof walletTxEvent>;
