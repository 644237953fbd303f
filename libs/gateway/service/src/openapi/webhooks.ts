/**
 * The wallet callbacks as OpenAPI 3.1 `webhooks`: what reelstream POSTs to the operator's
 * callback URL (spec §6, D7–D10, D22). The body schema is the contracts' callback schema in its
 * wire form, the examples are written by `encodeCallback` (the code that writes the real bodies),
 * so the document cannot drift from what is sent.
 */
import {
  CALLBACK_STATUS_CODES,
  callbackRequest,
  encodeCallback,
  HttpHeaders,
  operatorReply,
  type CallbackIdEncoding,
  type CallbackRequest,
} from '@reelstream/contracts';
import type { ComponentSchemas, JsonSchema } from './json-schema.js';

const WALLET_CALLBACK_SCHEMA = callbackRequest.meta({
  id: 'WalletCallback',
  description:
    'One wallet callback; `command` tells which. transactionId, roundId and refTransactionId are strings of digits by default, JSON numbers with the operator setting `callbackIdEncoding: "number"`; bonusId is always a JSON number (0 outside a bonus, else the issueId). `timestamp` is the Unix second of the transaction (the same on every attempt). A cancel reverses the whole transaction named by refTransactionId and carries what it moved: `amount` for a bet, `betAmount` and `winAmount` for a betwin (give back the stake, take back the win).',
});
const OPERATOR_REPLY_SCHEMA = operatorReply.meta({
  id: 'OperatorReply',
  description:
    'HTTP 200 with the balance after the operation (also on errors) in currency units, and the status code. The balance may be any finite JSON number (a floating-point balance such as 99.89999999999999 too): reelstream rounds it half to even to the currency’s minor units. Extra keys are ignored; anything else counts as ERR_UNKNOWN, and so does a reply over 16 KiB (16384 bytes), which is not read: its connection is closed.',
});

const common = { playerId: 'player_42', providerId: 1, gameCode: 101, bonusId: 0 } as const;
/** The operator guide's samples (§7), one per shape a body can take. */
const WALLET_CALLBACK_EXAMPLES: Record<string, CallbackRequest> = {
  bet: {
    command: 'bet',
    transactionId: 244377146876160,
    roundId: 244377146876161,
    ...common,
    currency: 'EUR',
    amount: 0.2,
    isBonusBusy: false,
    timestamp: 1777600000,
  },
  freeSpinWin: {
    command: 'win',
    transactionId: 244377146876162,
    roundId: 244377146876163,
    ...common,
    bonusId: 244376873632000,
    amount: 1.4,
    isRoundFinished: true,
    timestamp: 1777600001,
  },
  betwin: {
    command: 'betwin',
    transactionId: 244377146876170,
    roundId: 244377146876171,
    ...common,
    betAmount: 1,
    winAmount: 2.5,
    timestamp: 1777600002,
  },
  cancelOfBet: {
    command: 'cancel',
    transactionId: 244377146876180,
    refTransactionId: 244377146876160,
    roundId: 244377146876161,
    ...common,
    amount: 0.2,
    timestamp: 1777600003,
  },
  cancelOfBetwin: {
    command: 'cancel',
    transactionId: 244377146876181,
    refTransactionId: 244377146876170,
    roundId: 244377146876171,
    ...common,
    betAmount: 1,
    winAmount: 2.5,
    timestamp: 1777600004,
  },
};

export function walletWebhooks(components: ComponentSchemas): Record<string, unknown> {
  const body = components.add(WALLET_CALLBACK_SCHEMA);
  requireOneCancelShape(components.resolve(body));
  const examples: Record<string, { summary: string; value: unknown }> = {};
  for (const encoding of ['string', 'number'] as CallbackIdEncoding[]) {
    for (const [name, callback] of Object.entries(WALLET_CALLBACK_EXAMPLES)) {
      examples[`${name}_${encoding}Ids`] = {
        summary: `${name}, ids as ${encoding}s`,
        value: encodeCallback(callback, encoding),
      };
    }
  }
  return {
    walletCallback: {
      post: {
        operationId: 'walletCallback',
        summary: 'A wallet callback (bet, win, betwin, cancel) to the operator’s callbackUrl',
        description:
          'Sent by reelstream to the operator. Time limits: bet, betwin and cancel 3 s, win 4 s. A transactionId may arrive more than once: apply it once and answer a repeat with the original answer. A cancel is retried until answered OK.',
        parameters: [
          {
            name: HttpHeaders.requestTimestamp,
            in: 'header',
            required: true,
            description:
              'Unix time in whole seconds of this attempt (a retry carries a new one). Signed under `signatureScheme: "timestamp.body"`, where a wallet refuses a stale one (the operator sandbox: more than 5 minutes from its clock).',
            schema: { type: 'string', pattern: '^[0-9]{1,15}$' },
          },
          {
            name: HttpHeaders.requestSignature,
            in: 'header',
            required: true,
            description:
              'Lowercase hex HMAC-SHA256 with the operator’s signing secret of `<X-Request-Timestamp>.<raw body bytes>` (`signatureScheme: "timestamp.body"`, the default of a new operator) or of the raw body bytes (`signatureScheme: "body"`, kept by an operator of a version 1 configuration that names no scheme). During a rotation accept either secret; the current one signs.',
            schema: { type: 'string', pattern: '^[0-9a-f]{64}$' },
          },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: body, examples } } },
        responses: {
          '200': {
            description: `The operator’s answer. statusCode is one of ${CALLBACK_STATUS_CODES.map((code) => `\`${code}\``).join(', ')}; a cancel of an unknown or already canceled transaction is answered OK (nothing to reverse, so nothing to refuse).`,
            content: {
              'application/json': {
                schema: components.add(OPERATOR_REPLY_SCHEMA),
                examples: {
                  ok: { value: { balance: 100.5, statusCode: 'OK' } },
                  short: { value: { balance: 0.1, statusCode: 'ERR_NOT_ENOUGH_MONEY' } },
                },
              },
            },
          },
        },
      },
    },
  };
}

/** JSON Schema cannot be told by zod's refinement that a cancel carries one of its two shapes: say it here. */
function requireOneCancelShape(schema: JsonSchema): void {
  const variants = (schema['oneOf'] ?? schema['anyOf'] ?? []) as JsonSchema[];
  const cancel = variants.find(
    (variant) =>
      ((variant['properties'] as Record<string, JsonSchema> | undefined)?.['command'] as JsonSchema | undefined)?.[
        'const'
      ] === 'cancel',
  );
  if (cancel === undefined) throw new Error('the WalletCallback schema has no cancel variant');
  cancel['oneOf'] = [{ required: ['amount'] }, { required: ['betAmount', 'winAmount'] }];
  cancel['description'] =
    'The cancel of a bet carries `amount`; the cancel of a betwin carries `betAmount` and `winAmount`.';
}
