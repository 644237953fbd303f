/**
 * A message the embedded bus parks (a poison message: its handler fails every attempt) leaves a
 * trace where an operator looks: one error line with the reason and one count of
 * `reelstream_bus_messages_parked_total` for its topic and group.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { resolveBackends } from '@reelstream/platform-config';
import { eventually, installCollectingMeter } from '@reelstream/testing';
import { createLogger, createMetrics, PARKED_MESSAGES_METRIC } from '@reelstream/platform-telemetry';
import { openBackends, reportParkedMessages } from './open-backends.js';

const meter = installCollectingMeter();
const dir = mkdtempSync(join(tmpdir(), 'runtime-parked-'));
afterAll(async () => {
  await meter.uninstall();
  rmSync(dir, { recursive: true, force: true });
});

async function parkedCounts(): Promise<[unknown, number][]> {
  return (await meter.points<number>(PARKED_MESSAGES_METRIC)).map((point) => [point.attributes, point.value]);
}

describe('a parked message on the embedded bus', () => {
  it('is logged once at error with its reason and counted once by topic and group', async () => {
    const lines: string[] = [];
    const logger = createLogger({
      service: 'bonus-ledger',
      level: 'info',
      destination: { write: (line: string) => lines.push(line) },
    });
    const opened = await openBackends(
      resolveBackends({ DATA_DIR: dir }),
      { instanceId: 'parked-test', workerId: 2 },
      reportParkedMessages(logger, createMetrics('bonus-ledger')),
    );
    try {
      const consumer = await opened.bus.subscribe({
        groupId: 'poison-eater',
        topics: ['poison.topic'],
        maxAttempts: 2,
        retryDelayMs: () => 10,
        handler: async () => {
          throw new Error('cannot digest this message');
        },
      });
      await consumer.ready;
      await opened.bus.publish('poison.topic', { key: 'k1', value: { poison: true } });
      await eventually(
        async () => expect(await parkedCounts()).toEqual([[{ topic: 'poison.topic', group: 'poison-eater' }, 1]]),
        10_000,
      );
      await consumer.stop();
    } finally {
      await opened.close();
    }
    const entries = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry['msg'] === 'bus message parked');
    expect(entries).toEqual([
      expect.objectContaining({
        level: 'error',
        topic: 'poison.topic',
        deadLetterTopic: 'poison.topic.dlq',
        groupId: 'poison-eater',
        attempts: 2,
        reason: expect.stringContaining('cannot digest this message'),
      }),
    ]);
    expect(await parkedCounts()).toEqual([[{ topic: 'poison.topic', group: 'poison-eater' }, 1]]);
  });
});
