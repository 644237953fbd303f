/**
 * A paid round and its wallet transactions written to the event log as the game-server and the
 * wallet-dispatcher write them (the same event types and data, through `eventToAppend`): the bet
 * applied, the win dead-lettered after three failed attempts. For the reconciliation API's
 * tenancy and fuzz tests, which need history of two operators without running a game.
 */
import { randomUUID } from 'node:crypto';
import {
  canonicalJson,
  eventToAppend,
  parseStoredEvent,
  roundStream,
  walletTxStream,
  webhookLetterStream,
  type DomainEvent,
} from '@reelstream/contracts';
import type { EventStore } from '@reelstream/platform-ports';
import { paidRoundStarted, paidRoundWin, sampleBetRequest } from '@reelstream/testing';

export interface PaidRound {
  roundId: number;
  betTransactionId: number;
  winTransactionId: number;
}

let next = 900_000_000_000;

async function append(store: EventStore, streamId: string, operatorId: string, events: DomainEvent[], at: string) {
  const context = { correlationId: randomUUID(), causationId: randomUUID(), operatorId, occurredAt: at };
  await store.append(
    streamId,
    events.map((event) => eventToAppend(event, context)),
    { expectedRevision: 'no_stream' },
  );
  // Each event as the current schema has it: parsing validates it and upcasts nothing, so the history is what the services write today.
  for (const recorded of await store.readStream(streamId)) {
    if (canonicalJson(parseStoredEvent(recorded).data) !== canonicalJson(recorded.data))
      throw new Error(`${streamId}: ${recorded.type} is not in the current schema`);
  }
}

/** Writes one settled round of `operatorId`'s `playerId` (bet 1.00 EUR, win 2.50 EUR) at `at`. */
export async function writePaidRound(
  store: EventStore,
  operatorId: string,
  playerId: string,
  at = '2026-05-01T10:00:00.000Z',
): Promise<PaidRound> {
  const roundId = ++next;
  const betTransactionId = ++next;
  const winTransactionId = ++next;
  const ids = { operatorId, playerId, roundId };
  await append(
    store,
    roundStream(roundId),
    operatorId,
    [
      {
        type: 'RoundStarted',
        data: paidRoundStarted({
          ...ids,
          sessionToken: `session-token-of-${operatorId}-${playerId}`.slice(0, 60).padEnd(22, '0'),
          startedAt: at,
          transactionId: betTransactionId,
        }),
      },
      {
        type: 'RoundSettled',
        data: { roundId, outcome: { draws: [] }, winMinor: 250, settledAt: at, winTransactionId },
      },
    ],
    at,
  );
  const bet = sampleBetRequest({
    ...ids,
    transactionId: betTransactionId,
    providerId: 1,
    gameId: 101,
    requestedAt: at,
    amountMinor: 100,
  });
  await append(
    store,
    walletTxStream(betTransactionId),
    operatorId,
    [
      {
        type: 'WalletRequested',
        data: { transactionId: betTransactionId, operatorId, command: 'bet', request: bet, requestedAt: at },
      },
      { type: 'WalletAttempted', data: { attempt: 1, command: 'bet', at } },
      { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 9_900, command: 'bet', at } },
    ],
    at,
  );
  const win = paidRoundWin(
    { stream: roundStream(roundId), revision: 1, eventId: randomUUID() },
    { ...ids, transactionId: winTransactionId, requestedAt: at },
  );
  const failed: DomainEvent[] = [1, 2, 3].flatMap((attempt): DomainEvent[] => [
    { type: 'WalletAttempted', data: { attempt, command: 'win', at } },
    { type: 'WalletFailed', data: { error: 'timeout', attempt, final: attempt === 3, command: 'win', at } },
  ]);
  await append(
    store,
    walletTxStream(winTransactionId),
    operatorId,
    [
      {
        type: 'WalletRequested',
        data: { transactionId: winTransactionId, operatorId, command: 'win', request: win, requestedAt: at },
      },
      ...failed,
      { type: 'WinDeadLettered', data: { attempts: 3, lastError: 'timeout', at } },
    ],
    at,
  );
  return { roundId, betTransactionId, winTransactionId };
}

/**
 * A bonus webhook of `operatorId`'s `playerId` given up after ten attempts, as the wallet-dispatcher
 * records it before the bus parks it (`webhookLetter-{operatorId}-{eventId}`). Returns its eventId.
 */
export async function writeWebhookLetter(
  store: EventStore,
  operatorId: string,
  playerId: string,
  at = '2026-05-01T10:00:00.000Z',
): Promise<string> {
  const eventId = `bw-${randomUUID()}`;
  const bonusId = ++next;
  await append(
    store,
    webhookLetterStream(operatorId, eventId),
    operatorId,
    [
      {
        type: 'WebhookDeadLettered',
        data: {
          operatorId,
          webhook: {
            eventId,
            type: 'bonus.registered',
            bonusId,
            playerId,
            sequence: 0,
            occurredAt: at,
            status: 'active',
            currency: 'EUR',
            spinsUsed: 0,
            totalWin: 0,
          },
          key: `${operatorId}:${bonusId}`,
          attempts: 10,
          lastError: 'HTTP 503',
          at,
        },
      },
    ],
    at,
  );
  return eventId;
}
