import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { RecordedEvent } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { TempStores } from './temp-store.js';

const WORKER = fileURLToPath(new URL('./workers/open-and-append.worker.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const stores = new TempStores();
const children = new Set<ChildProcess>();

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await stores.dispose();
});

/** Runs the worker to completion; resolves with its exit code and output. */
function runWorker(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.once('close', (code) => {
      children.delete(child);
      resolve({ code, stdout, stderr });
    }),
  );
}

describe('SqliteEventStore across processes', () => {
  it('lets 3 processes create the schema of a new file at the same moment (3 files)', async () => {
    for (let file = 0; file < 3; file++) {
      const path = stores.path(`race-${file}.db`);
      const startAt = String(Date.now() + 1_500); // after every worker has booted
      const runs = await Promise.all(
        [0, 1, 2].map((i) => runWorker({ DB_PATH: path, STREAM: `writer-${i}`, START_AT: startAt, COUNT: '2' })),
      );
      for (const run of runs) expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
      const store = stores.open({}, `race-${file}.db`);
      expect(await store.readAll()).toHaveLength(6);
    }
  }, 60_000);

  it("finds another process's appends by polling data_version", async () => {
    const store = stores.open({ pollIntervalMs: 20 }, 'polled.db');
    const subscription = store.subscribeToAll({ from: 'end' });
    const received: RecordedEvent[] = [];
    const consuming = (async () => {
      for await (const event of subscription) {
        received.push(event);
        if (received.length === 3) break;
      }
    })();
    const run = await runWorker({ DB_PATH: stores.path('polled.db'), STREAM: 'remote-1', COUNT: '3' });
    expect(run.code).toBe(0);
    try {
      await eventually(() => expect(received).toHaveLength(3), 5_000);
    } finally {
      await subscription.close();
      await consuming;
    }
    expect(received.map((e) => [e.streamId, e.revision])).toEqual([
      ['remote-1', 0],
      ['remote-1', 1],
      ['remote-1', 2],
    ]);
  }, 30_000);
});
