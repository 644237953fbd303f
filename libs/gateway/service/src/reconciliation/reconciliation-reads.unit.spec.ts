import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from '@jest/globals';
import { webhookLetterStream } from '@reelstream/contracts';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { createLogger } from '@reelstream/platform-telemetry';
import { eventually } from '@reelstream/testing';
import { writeWebhookLetter } from '../../test/support/wallet-history.js';
import { openReconciliationReads, type ReconciliationReads } from './reconciliation-reads.js';
import { SqliteReconciliationReadModel } from '@reelstream/wallet-adapters';

const opened: { store: SqliteEventStore; reads: ReconciliationReads }[] = [];
afterEach(async () => {
  for (const { store, reads } of opened.splice(0)) {
    await reads.close();
    await store.close();
  }
});

/** The reads over a new in-memory log, with the lines they log. */
function open(catchUpTimeoutMs?: number) {
  const store = SqliteEventStore.open(':memory:');
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    service: 'gateway-test',
    level: 'debug',
    destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const reads = openReconciliationReads({
    store,
    readModels: SqliteReconciliationReadModel,
    logger,
    ...(catchUpTimeoutMs === undefined ? {} : { catchUpTimeoutMs }),
  });
  opened.push({ store, reads });
  return { store, reads, lines };
}

describe('openReconciliationReads', () => {
  it('projects the log into the read model: a list holds every letter stored before it was asked', async () => {
    const { store, reads } = open();
    const eventId = await writeWebhookLetter(store, 'casino-a', 'player_1');
    await reads.projection.caughtUp();
    const rows = reads.readModel.webhookLetterRows('casino-a', 0, 10);
    expect(rows.map((row) => (row.letter as { webhook: { eventId: string } }).webhook.eventId)).toEqual([eventId]);
  });

  it('close() stops the projection and closes the read model: a letter stored afterwards is never projected', async () => {
    const { store, reads } = open(100);
    await reads.close();
    await writeWebhookLetter(store, 'casino-a', 'player_1');
    await expect(reads.projection.caughtUp()).rejects.toThrow(
      /^the reconciliation read model did not reach \S+ within 100 ms$/,
    );
    expect(() => reads.readModel.webhookLetterRows('casino-a', 0, 10)).toThrow(/^The database connection is not open$/);
  });

  it('logs a batch that fails and retries it; a list then waits as long as it was configured to, and answers 503', async () => {
    const { store, reads, lines } = open(150);
    // A letter this code cannot read: its batch fails every time it is applied.
    await store.append(
      webhookLetterStream('casino-a', `bw-${randomUUID()}`),
      [{ type: 'WebhookDeadLettered', data: { operatorId: 'casino-a' } }],
      { expectedRevision: 'no_stream' },
    );
    const started = Date.now();
    const waited = reads.projection.caughtUp();
    await expect(waited).rejects.toThrow(/^the reconciliation read model did not reach \S+ within 150 ms$/);
    await expect(waited).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(Date.now() - started).toBeLessThan(2_000);
    const failed = () => lines.filter((line) => line['msg'] === 'reconciliation read model: a batch failed; retrying');
    // Tried again after its retry delay, and logged again.
    await eventually(() => expect(failed().length).toBeGreaterThanOrEqual(2), 3_000);
    for (const line of failed())
      expect(line).toMatchObject({
        level: 'warn',
        error: { message: expect.stringContaining('event WebhookDeadLettered (schema version 1) has invalid data') },
      });
  });
});
