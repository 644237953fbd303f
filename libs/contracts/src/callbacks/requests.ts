/**
 * Wallet callbacks the platform sends to the operator's callback URL (spec §6, decisions.md D7–D10,
 * D22). Inside the system the ids are numbers; on the wire transactionId, roundId and
 * refTransactionId are strings of digits by default (the spec's samples) or JSON numbers when the
 * operator's `callbackIdEncoding` is `number`. `bonusId` is typed long by the spec and is a JSON
 * number in every encoding (D7 amended). `encodeCallback` writes the exact wire
 * object, in the field order of the spec; the schemas here parse either id encoding back (the
 * sandbox parses what it receives).
 *
 * As specified, only `bet` carries `currency`: `win`, `betwin` and `cancel` are in the player's
 * account currency, which the operator already knows. A `cancel` carries what the transaction it
 * reverses moved (D9 amended): `amount` for a bet, `betAmount` and `winAmount` for a
 * betwin, so that reversing it is a matter of reading the body.
 */
import * as z from 'zod';
import { bonusIdValue, longIdText } from '../shared/ids.js';
import { catalogId, currencyCode, longId, playerId, unixSeconds } from '../shared/primitives.js';
import type { CallbackIdEncoding } from '../operators.js';

export type WireIdEncoding = CallbackIdEncoding | 'either';

/** transactionId, roundId, refTransactionId on the wire. */
function wireLongId(encoding: WireIdEncoding = 'either') {
  if (encoding === 'number') return longId;
  if (encoding === 'string') return longIdText;
  return z.union([longId, longIdText], { error: 'expected a positive integer as a JSON number or a string of digits' });
}

/** bonusId on the wire: 0 or an issueId, always a JSON number (whatever the id encoding). */
const wireBonusId = bonusIdValue;

/** An amount in currency units on the wire; decimals are the currency's (converted with @reelstream/money). */
const positiveUnits = z.number().positive();
const units = z.number().min(0);

function callbackSchemas(encoding: WireIdEncoding) {
  const id = wireLongId(encoding);
  const common = {
    transactionId: id,
    playerId,
    roundId: id,
    providerId: catalogId,
    gameCode: catalogId,
    bonusId: wireBonusId,
    timestamp: unixSeconds,
  };
  const bet = z.strictObject({
    command: z.literal('bet'),
    ...common,
    currency: currencyCode,
    amount: positiveUnits,
    isBonusBusy: z.boolean(),
  });
  const win = z.strictObject({ command: z.literal('win'), ...common, amount: units, isRoundFinished: z.boolean() });
  const betwin = z.strictObject({
    command: z.literal('betwin'),
    ...common,
    betAmount: positiveUnits,
    winAmount: units,
  });
  // One object with the amounts optional, refined to exactly one of the two shapes: a discriminated
  // union cannot hold two options with the same `command`.
  const cancel = z
    .strictObject({
      command: z.literal('cancel'),
      ...common,
      refTransactionId: id,
      amount: positiveUnits.optional(),
      betAmount: positiveUnits.optional(),
      winAmount: units.optional(),
    })
    .superRefine((body, ctx) => {
      const ofBet = body.amount !== undefined;
      const ofBetwin = body.betAmount !== undefined || body.winAmount !== undefined;
      if (ofBet === ofBetwin) {
        ctx.addIssue({
          code: 'custom',
          path: ['amount'],
          message:
            'a cancel carries amount (of a bet) or betAmount and winAmount (of a betwin), not both and not neither',
        });
      } else if (ofBetwin && (body.betAmount === undefined || body.winAmount === undefined)) {
        ctx.addIssue({
          code: 'custom',
          path: [body.betAmount === undefined ? 'betAmount' : 'winAmount'],
          message: 'the cancel of a betwin carries both betAmount and winAmount',
        });
      }
    })
    .transform((body) => body as CancelCallback);
  const any = z.discriminatedUnion('command', [bet, win, betwin, cancel]);
  return { bet, win, betwin, cancel, any };
}

/** Accept either id encoding: what the sandbox and tests use to read a received body. */
export const betCallback = callbackSchemas('either').bet;
export const winCallback = callbackSchemas('either').win;
export const cancelCallback = callbackSchemas('either').cancel;
export const callbackRequest = callbackSchemas('either').any;

const strictByEncoding = { string: callbackSchemas('string').any, number: callbackSchemas('number').any } as const;

/** The schema that accepts only the given id encoding (to check that an operator's setting is honoured). */
export function callbackRequestFor(encoding: CallbackIdEncoding) {
  return strictByEncoding[encoding];
}

export type BetCallback = z.output<typeof betCallback>;
export type WinCallback = z.output<typeof winCallback>;
export type BetwinCallback = z.output<ReturnType<typeof callbackSchemas>['betwin']>;
interface CancelCommon {
  command: 'cancel';
  transactionId: number;
  refTransactionId: number;
  playerId: string;
  roundId: number;
  providerId: number;
  gameCode: number;
  bonusId: number;
  timestamp: number;
}
/** The cancel of a bet gives back its `amount`. */
type CancelOfBet = CancelCommon & { amount: number; betAmount?: never; winAmount?: never };
/** The cancel of a betwin gives back `betAmount` and takes back `winAmount`. */
type CancelOfBetwin = CancelCommon & { betAmount: number; winAmount: number; amount?: never };
export type CancelCallback = CancelOfBet | CancelOfBetwin;
export type CallbackRequest = z.output<typeof callbackRequest>;
export type CallbackCommand = CallbackRequest['command'];
export const CALLBACK_COMMANDS = ['bet', 'win', 'betwin', 'cancel'] as const satisfies readonly CallbackCommand[];

type Encoded<Body, Id> = {
  [Key in keyof Body]: Key extends 'transactionId' | 'roundId' | 'refTransactionId' ? Id : Body[Key];
};
export type WireCallback<Body extends CallbackRequest = CallbackRequest> =
  Encoded<Body, string> | Encoded<Body, number>;

/**
 * The body to send, ids in the operator's encoding, keys in the order of the spec's tables (the
 * signature covers the raw bytes, so the order is part of the contract). The input is validated
 * first: a malformed callback never leaves the platform.
 */
export function encodeCallback<Body extends CallbackRequest>(
  body: Body,
  encoding: CallbackIdEncoding,
): WireCallback<Body> {
  const valid = callbackRequest.parse(body);
  const id = (value: number): string | number => (encoding === 'string' ? String(value) : value);
  const head = { command: valid.command, transactionId: id(valid.transactionId) };
  const ids = {
    playerId: valid.playerId,
    roundId: id(valid.roundId),
    providerId: valid.providerId,
    gameCode: valid.gameCode,
  };
  const tail = { bonusId: valid.bonusId, timestamp: valid.timestamp };
  switch (valid.command) {
    case 'bet':
      return {
        ...head,
        ...ids,
        currency: valid.currency,
        amount: valid.amount,
        isBonusBusy: valid.isBonusBusy,
        ...tail,
      } as WireCallback<Body>;
    case 'win':
      return {
        ...head,
        ...ids,
        amount: valid.amount,
        isRoundFinished: valid.isRoundFinished,
        ...tail,
      } as WireCallback<Body>;
    case 'betwin':
      return { ...head, ...ids, betAmount: valid.betAmount, winAmount: valid.winAmount, ...tail } as WireCallback<Body>;
    case 'cancel': {
      const moved =
        valid.amount !== undefined
          ? { amount: valid.amount }
          : { betAmount: valid.betAmount, winAmount: valid.winAmount };
      return {
        ...head,
        refTransactionId: id(valid.refTransactionId),
        ...ids,
        ...moved,
        ...tail,
      } as unknown as WireCallback<Body>;
    }
    default: {
      const unreachable: never = valid;
      throw new Error(`unknown callback ${JSON.stringify(unreachable)}`);
    }
  }
}

/** Parses a received callback body (either encoding) into the internal shape with numeric ids. */
export function parseCallback(value: unknown, encoding: WireIdEncoding = 'either'): CallbackRequest {
  return (encoding === 'either' ? callbackRequest : strictByEncoding[encoding]).parse(value);
}
