/**
 * The stored event a test's win comes from (the dispatcher sends no win without one):
 * a paid round's RoundStarted and RoundSettled, written as the game-server writes them, and the
 * win returned with its `source`. Tests that publish wins straight on the bus use it so that only
 * the forged wins they mean to forge are refused.
 */
import { randomUUID } from 'node:crypto';
import { eventToAppend, roundStream, type RoundEvent, type WalletWinRequest } from '@reelstream/contracts';
import type { EventStore } from '@reelstream/ports';

export async function recordWinSource(
  store: EventStore,
  win: Omit<WalletWinRequest, 'source'>,
  options: { betTransactionId?: number } = {},
): Promise<WalletWinRequest> {
  const streamId = roundStream(win.roundId);
  const context = {
    correlationId: `round-${win.roundId}`,
    causationId: `round-${win.roundId}`,
    operatorId: win.operatorId,
    occurredAt: win.requestedAt,
  };
  const started: RoundEvent = {
    type: 'RoundStarted',
    data: {
      roundId: win.roundId,
      sessionToken: `test-session-${String(win.roundId).padStart(16, '0')}`,
      operatorId: win.operatorId,
      playerId: win.playerId,
      providerId: win.providerId,
      gameId: win.gameId,
      kind: 'paid',
      currency: win.currency,
      betMinor: 100,
      bonusId: win.bonusId,
      rtpProfile: 'standard',
      startedAt: win.requestedAt,
      ...(options.betTransactionId === undefined ? {} : { transactionId: options.betTransactionId }),
    },
  };
  const settled: RoundEvent = {
    type: 'RoundSettled',
    data: {
      roundId: win.roundId,
      outcome: { test: true },
      winMinor: win.amountMinor,
      settledAt: win.requestedAt,
      winTransactionId: win.transactionId,
    },
  };
  const eventId = randomUUID();
  const result = await store.append(
    streamId,
    [
      { ...eventToAppend(started, context), eventId: randomUUID() },
      { ...eventToAppend(settled, context), eventId },
    ],
    { expectedRevision: 'no_stream' },
  );
  return { ...win, source: { stream: streamId, revision: result.nextExpectedRevision, eventId } };
}
