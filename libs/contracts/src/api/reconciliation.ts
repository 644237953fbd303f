/**
 * The reconciliation and dead-letter API: a round with its wallet transactions, the
 * operator's transactions page by page, its dead-lettered wins and their re-drive
 * (docs/adr/0007-operator-reconciliation-api.md). Amounts are currency units of the
 * transaction's currency; each transaction says how its delivery stands and how many callbacks
 * went out for it.
 */
import * as z from 'zod';
import { catalogId, currencyCode, isoInstant, longId, playerId } from '../shared/primitives.js';
import { longIdText } from '../shared/ids.js';
import { okEnvelope, okPage } from './envelope.js';

const units = z.number();

/**
 * - `pending`: requested, being delivered (an attempt may be in flight);
 * - `succeeded`: the operator answered OK;
 * - `failed`: a bet or betwin failed for good (its round was canceled);
 * - `dead_lettered`: a win failed every attempt of its last delivery, until re-driven.
 */
const TRANSACTION_STATUSES = ['pending', 'succeeded', 'failed', 'dead_lettered'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

const transactionExample = {
  transactionId: 171234567890201,
  roundId: 171234567890200,
  playerId: 'player_42',
  providerId: 1,
  gameId: 101,
  command: 'win',
  currency: 'EUR',
  amount: 1.5,
  bonusId: 0,
  requestedAt: '2026-05-01T09:30:00.120Z',
  status: 'succeeded',
  attempts: 2,
  lastError: null,
  balance: 101.3,
  cancel: null,
  nextRedriveAt: null,
} as const;

const operatorTransaction = z
  .strictObject({
    transactionId: longId,
    roundId: longId,
    playerId,
    providerId: catalogId,
    gameId: catalogId,
    command: z.enum(['bet', 'win', 'betwin']),
    currency: currencyCode,
    amount: units.meta({
      description: "Signed change to the player's balance asked for, in currency units: a bet is negative.",
    }),
    bonusId: z.number().int().min(0).meta({ description: 'The issueId of the bonus call of the round, or 0.' }),
    requestedAt: isoInstant,
    status: z.enum(TRANSACTION_STATUSES),
    attempts: z.number().int().min(0).meta({
      description:
        'Callbacks sent for it, re-drives included; 0 for a bet or betwin never sent because its 3 s had passed when the platform took it.',
    }),
    lastError: z.string().nullable().meta({
      description:
        'Why the last attempt failed (your code, a time-out; `timeout: not sent…` for a bet never sent after its deadline), or null.',
    }),
    balance: units.nullable().meta({
      description:
        'The balance your reply carried, when you answered OK, rounded half to even to the currency’s minor units.',
    }),
    cancel: z
      .strictObject({
        transactionId: longId,
        status: z.enum(['pending', 'succeeded']),
        attempts: z.number().int().min(0),
      })
      .nullable()
      .meta({ description: 'The cancel callback that reverted a failed bet or betwin, or null.' }),
    nextRedriveAt: isoInstant.nullable().meta({
      description:
        'When a dead-lettered win is next re-driven by your `winRedrive` schedule (default every 5 minutes for 24 hours after its first dead letter); null when it is not dead-lettered or the schedule is over (it then waits for a re-drive you ask for).',
    }),
  })
  .meta({
    id: 'OperatorTransaction',
    description: 'One wallet transaction and its delivery.',
    examples: [transactionExample],
  });
export type OperatorTransaction = z.infer<typeof operatorTransaction>;

const roundExample = {
  roundId: 171234567890200,
  playerId: 'player_42',
  providerId: 1,
  gameId: 101,
  kind: 'paid',
  currency: 'EUR',
  bet: 1,
  win: 1.5,
  bonusId: 0,
  status: 'settled',
  startedAt: '2026-05-01T09:30:00.100Z',
  endedAt: '2026-05-01T09:30:00.110Z',
  transactions: [
    {
      ...transactionExample,
      transactionId: 171234567890199,
      command: 'bet',
      amount: -1,
      requestedAt: '2026-05-01T09:30:00.100Z',
      attempts: 1,
      balance: 99.8,
    },
    transactionExample,
  ],
} as const;

export const roundPathParams = z.strictObject({ roundId: longIdText }).meta({
  id: 'RoundPathParams',
  description: 'Path parameters of GET /v1/rounds/{roundId}.',
  examples: [{ roundId: '171234567890200' }],
});

const operatorRound = z
  .strictObject({
    roundId: longId,
    playerId,
    providerId: catalogId,
    gameId: catalogId,
    kind: z.enum(['paid', 'free']).meta({ description: '`free`: a free spin of a bonus call.' }),
    currency: currencyCode,
    bet: units.meta({ description: 'Stake in currency units (a free spin stakes nothing of the player).' }),
    win: units.nullable().meta({ description: 'What the round won, in currency units; null until it settled.' }),
    bonusId: z.number().int().min(0),
    status: z.enum(['open', 'settled', 'canceled']),
    startedAt: isoInstant,
    endedAt: isoInstant.nullable(),
    transactions: z.array(operatorTransaction).meta({ description: 'Its bet, win and betwin, as requested.' }),
  })
  .meta({
    id: 'OperatorRound',
    description: 'One round and every wallet transaction it sent.',
    examples: [roundExample],
  });
export type OperatorRound = z.infer<typeof operatorRound>;

export const getRoundResponse = okEnvelope(operatorRound).meta({
  id: 'GetRoundResponse',
  description: 'GET /v1/rounds/{roundId}: a round of the calling operator (another operator’s is a 404).',
  examples: [{ success: true, message: 'OK', data: roundExample }],
});

const DEFAULT_TRANSACTION_LIMIT = 100;
const MAX_TRANSACTION_LIMIT = 500;
const limitError = `limit must be an integer from 1 to ${MAX_TRANSACTION_LIMIT}`;

const cursorText = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,256}$/, { error: 'cursor must be the nextCursor of a previous page' });

/** `limit` and `cursor` of a paged list: GET /v1/transactions and the dead-letter lists. */
const pageQueryFields = {
  limit: z
    .string()
    .regex(/^[0-9]{1,3}$/, { error: limitError })
    .transform(Number)
    .pipe(z.number().int().min(1, { error: limitError }).max(MAX_TRANSACTION_LIMIT, { error: limitError }))
    .optional()
    .transform((limit) => limit ?? DEFAULT_TRANSACTION_LIMIT)
    .meta({ description: `Page size, 1–${MAX_TRANSACTION_LIMIT}, default ${DEFAULT_TRANSACTION_LIMIT}.` }),
  cursor: cursorText.optional().meta({
    description:
      'The `nextCursor` of the previous page: opaque, sealed for the calling operator and this list. Another ' +
      'operator’s, another list’s, an altered one, or one of the earlier kind (a log position) is 400 CURSOR_INVALID.',
  }),
};

export const listTransactionsQueryParams = z
  .strictObject({
    from: isoInstant.optional().meta({ description: 'Requested at or after this instant (UTC, ISO-8601 with Z).' }),
    to: isoInstant.optional().meta({ description: 'Requested before this instant.' }),
    playerId: playerId.optional(),
    status: z
      .enum(TRANSACTION_STATUSES, { error: `status must be one of ${TRANSACTION_STATUSES.join(', ')}` })
      .optional(),
    ...pageQueryFields,
  })
  .refine((query) => query.from === undefined || query.to === undefined || query.from < query.to, {
    path: ['to'],
    error: 'to must be after from',
  })
  .meta({
    id: 'ListTransactionsQuery',
    description:
      'Query parameters of GET /v1/transactions; all optional. Pages come in the order the transactions were recorded.',
    examples: [
      { from: '2026-05-01T00:00:00.000Z', to: '2026-05-02T00:00:00.000Z' },
      { playerId: 'player_42', status: 'dead_lettered' },
      { limit: '50', cursor: 'AWuXx40UV7yr-iaN9BzMR7TyumIZaZkh3fMrmwUGxxR5bIxbAQ' },
    ],
  });

export const listTransactionsResponse = okPage(operatorTransaction).meta({
  id: 'ListTransactionsResponse',
  description: 'GET /v1/transactions: a page of the calling operator’s wallet transactions, in recorded order.',
  examples: [
    {
      success: true,
      message: 'OK',
      data: { items: [transactionExample], nextCursor: 'AWuXx40UV7yr-iaN9BzMR7TyumIZaZkh3fMrmwUGxxR5bIxbAQ' },
    },
  ],
});

const deadLetterExample = {
  transaction: { ...transactionExample, status: 'dead_lettered', attempts: 3, lastError: 'timeout', balance: null },
  reason: 'delivery_failed',
  deadLetteredAt: '2026-05-01T09:30:12.500Z',
} as const;

const operatorDeadLetter = z
  .strictObject({
    transaction: operatorTransaction,
    reason: z.enum(['delivery_failed', 'operator_not_configured', 'transaction_id_conflict', 'decision_refused']),
    deadLetteredAt: isoInstant,
  })
  .meta({
    id: 'OperatorDeadLetter',
    description: 'A win that was not delivered: the player is owed it until it is re-driven.',
    examples: [deadLetterExample],
  });

export const listDeadLettersQueryParams = z.strictObject(pageQueryFields).meta({
  id: 'ListDeadLettersQuery',
  description:
    'Query parameters of GET /v1/wallet/dead-letters and GET /v1/webhooks/dead-letters; all optional. Pages come in the order the letters were dead-lettered.',
  examples: [{}, { limit: '50', cursor: 'AWuXx40UV7yr-iaN9BzMR7TyumIZaZkh3fMrmwUGxxR5bIxbAQ' }],
});

export const listDeadLettersResponse = okPage(operatorDeadLetter).meta({
  id: 'ListDeadLettersResponse',
  description:
    'GET /v1/wallet/dead-letters: a page of the calling operator’s dead-lettered wins, in the order they were dead-lettered (oldest first).',
  examples: [{ success: true, message: 'OK', data: { items: [deadLetterExample], nextCursor: null } }],
});

export const redrivePathParams = z.strictObject({ transactionId: longIdText }).meta({
  id: 'RedrivePathParams',
  description: 'Path parameters of POST /v1/wallet/dead-letters/{transactionId}/redrive.',
  examples: [{ transactionId: '171234567890201' }],
});

export const redriveResponse = okEnvelope(
  z
    .strictObject({
      result: z.enum(['applied', 'already_applied', 'failed']).meta({
        description:
          '`applied`: sent again and you answered OK; `already_applied`: it was delivered before, nothing was sent; `failed`: sent again, not applied, it stays dead-lettered.',
      }),
      reason: z.string().nullable(),
      transaction: operatorTransaction,
    })
    .meta({ id: 'RedriveResult', description: 'What the re-drive did.' }),
).meta({
  id: 'RedriveResponse',
  description: 'POST /v1/wallet/dead-letters/{transactionId}/redrive: the win sent again with its own transactionId.',
  examples: [
    {
      success: true,
      message: 'OK',
      data: { result: 'applied', reason: null, transaction: { ...transactionExample, attempts: 4 } },
    },
  ],
});
