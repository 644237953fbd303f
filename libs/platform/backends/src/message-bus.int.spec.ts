import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import type { Message } from '@reelstream/platform-ports';
import { kafkaBusOptions, openMessageBus, parseSqliteBusUrl } from './message-bus.js';

describe('openMessageBus', () => {
  it('passes the instance id and the onParked observer through to the Kafka adapter', () => {
    const onParked = () => undefined;
    expect(kafkaBusOptions({ instanceId: 'p-1', onParked })).toEqual({ instanceId: 'p-1', onParked });
    expect(kafkaBusOptions({})).toEqual({});
  });

  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('reads a sqlite: URL as a path relative to the working directory, with optional tuning', () => {
    expect(parseSqliteBusUrl('sqlite:./data/reelstream.db')).toEqual({
      path: resolve('data/reelstream.db'),
      options: {},
    });
    expect(parseSqliteBusUrl('sqlite:///var/lib/bus.db?sessionTimeoutMs=2000&synchronous=NORMAL&partitions=8')).toEqual(
      {
        path: '/var/lib/bus.db',
        options: { sessionTimeoutMs: 2_000, synchronous: 'NORMAL', partitions: 8 },
      },
    );
  });

  it('rejects a sqlite: URL without a file or with an unknown option', () => {
    expect(() => parseSqliteBusUrl('sqlite:')).toThrow(/names no file/);
    expect(() => parseSqliteBusUrl('sqlite:./bus.db?sessionTimeout=5')).toThrow(/sessionTimeout/);
    expect(() => parseSqliteBusUrl('sqlite:./bus.db?synchronous=OFF')).toThrow(/synchronous/);
  });

  it('names the scheme it cannot open', async () => {
    await expect(openMessageBus('amqp://rabbit:5672')).rejects.toThrow(
      /unsupported BUS_URL amqp:\/\/rabbit:5672: scheme amqp: is not supported \(use sqlite:<path> or kafka:/,
    );
  });

  it('opens the SQLite log, creating the parent directory, under the given instance id', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'backends-bus-'));
    dirs.push(dir);
    const file = join(dir, 'nested', 'data', 'bus.db');
    const bus = await openMessageBus(`sqlite:${file}`, { instanceId: 'gateway-1' });
    try {
      expect(existsSync(file)).toBe(true);
      const received: Message[] = [];
      const consumer = await bus.subscribe({
        groupId: 'g',
        topics: ['t'],
        handler: async (message) => void received.push(message),
      });
      await consumer.ready;
      const handled = new Promise<void>((resolve) => {
        const check = setInterval(() => {
          if (received.length === 0) return;
          clearInterval(check);
          resolve();
        }, 5);
      });
      await bus.publish('t', { key: 'k', value: { ok: true } });
      await handled;
      expect(received.map(({ value }) => value)).toEqual([{ ok: true }]);

      // The instance id names this process's reply group.
      const reply = bus.request('nobody.listens', { key: 'k', value: {} }, { replyTopic: 'replies', timeoutMs: 50 });
      await expect(reply).rejects.toThrow(/no reply/);
      const db = new Database(file, { readonly: true });
      const replyGroups = db.prepare("SELECT DISTINCT group_id FROM bus_offsets WHERE topic = 'replies'").pluck().all();
      db.close();
      expect(replyGroups).toEqual(['reply.gateway-1']);
    } finally {
      await bus.close();
    }
  });
});
