/**
 * The stored event a test's win comes from (the dispatcher sends no win without one):
 * a paid round's RoundSettled, after its RoundStarted, written as the game-server writes them, and
 * the win returned with its `source`. A round whose bet was recorded first (`recordStakeSource`)
 * keeps that RoundStarted; otherwise one is written with the win's fields. Tests that publish wins
 * straight on the bus use it so that only the forged wins they mean to forge are refused.
 */
import { randomUUID } from 'node:crypto';
import { eventToAppend, roundStream, type RoundEvent, type WalletWinRequest } from '@reelstream/contracts';
import type { EventStore } from '@reelstream/platform-ports';

export async function recordWinSource(
  store: EventStore,
  win: Omit<WalletWinRequest, 'source'>,
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
  const revision = await store.streamRevision(streamId);
  const result = await store.append(
    streamId,
    [
      ...(revision === undefined ? [{ ...eventToAppend(started, context), eventId: randomUUID() }] : []),
      { ...eventToAppend(settled, context), eventId },
    ],
    { expectedRevision: revision ?? 'no_stream' },
  );
  return { ...win, source: { stream: streamId, revision: result.nextExpectedRevision, eventId } };
}
