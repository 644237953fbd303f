/**
 * `npm run bench:ledger`: bonus registrations per second end to end on the embedded back ends —
 * a client publishes RegisterBonusCall on `bonus.commands` with `bus.request`, the bonus-ledger
 * (the real app, `apps/bonus-ledger/src/main.ts`, in its own process) reserves the platformId,
 * decides on the player's stream, appends, and answers on `bonus.replies`. Latency is send →
 * reply as the client sees it. One SQLite file (WAL, synchronous=FULL) holds the store and the bus.
 *
 * CLIENTS concurrent clients each send one registration at a time, every one for its own player
 * (so every registration is accepted and does the full work: guard + player stream + reply).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMessageBus } from '@reelstream/backends';
import {
  bonusCommandKey,
  parseBonusReply,
  sha256HexOf,
  Topics,
  type RegisterBonusCallCommand,
} from '@reelstream/contracts';
import type { MessageBus } from '@reelstream/ports';

const CLIENTS = 50;
const WARM_UP = 200;
const MEASURED = 4_000;

function registration(n: number): RegisterBonusCallCommand {
  const body = {
    operatorId: 'demo',
    platformId: `bench-${n}`,
    playerId: `bench_player_${n}`,
    providerId: 1,
    gameIds: [101, 102],
    bonusType: 1 as const,
    currency: 'EUR',
    callAmountMinor: 5_000,
    spinAmount: 10,
    baseBetAmountMinor: 20,
    expireAt: new Date(Date.now() + 86_400_000).toISOString(),
  };
  const id = randomUUID();
  return {
    type: 'RegisterBonusCall',
    version: 1,
    data: { ...body, requestHash: sha256HexOf(JSON.stringify(body)) },
    metadata: { commandId: id, correlationId: id, operatorId: 'demo', issuedAt: new Date().toISOString() },
  };
}

async function run(bus: MessageBus, from: number, count: number): Promise<{ ms: number; latencies: number[] }> {
  const latencies: number[] = [];
  let next = from;
  const end = from + count;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (next < end) {
        const command = registration(next++);
        const sent = performance.now();
        const reply = await bus.request(
          Topics.bonusCommands,
          { key: bonusCommandKey(command), value: command },
          { replyTopic: Topics.bonusReplies, timeoutMs: 30_000 },
        );
        latencies.push(performance.now() - sent);
        const answer = parseBonusReply('RegisterBonusCall', reply.value);
        if (!answer.ok) throw new Error(`registration refused: ${answer.error.code} ${answer.error.message}`);
      }
    }),
  );
  return { ms: performance.now() - start, latencies };
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-bench-'));
  const ledger = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '../apps/bonus-ledger/src/main.ts')],
    {
      cwd: join(import.meta.dirname, '..'),
      env: {
        ...process.env,
        DATA_DIR: dir,
        HEALTH_PORT: '0',
        INSTANCE_ID: 'ledger-bench',
        LOG_LEVEL: 'warn',
        OTEL_SDK_DISABLED: 'true',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const exited = new Promise((resolve) => ledger.once('exit', resolve));
  let bus: MessageBus | undefined;
  try {
    bus = await openMessageBus(`sqlite:${join(dir, 'reelstream.db')}`, { instanceId: 'ledger-bench-client' });
    // The first registration waits on the bus until the ledger has started and answers it.
    await run(bus, 0, 1);
    await run(bus, 1, WARM_UP);
    const { ms, latencies } = await run(bus, 1 + WARM_UP, MEASURED);
    const sorted = [...latencies].sort((a, b) => a - b);
    console.log(
      `bonus-ledger bench: RegisterBonusCall through bus.request → bonus-ledger (own process) → bonus.replies; SQLite WAL synchronous=FULL; ${CLIENTS} concurrent clients, ${MEASURED} registrations after ${WARM_UP} warm-up`,
    );
    console.log(`registrations/s  ${((MEASURED * 1000) / ms).toFixed(0)}`);
    console.log(
      `latency ms       p50 ${percentile(sorted, 50).toFixed(1)}  p99 ${percentile(sorted, 99).toFixed(1)}  max ${(sorted[sorted.length - 1] ?? NaN).toFixed(1)}`,
    );
  } finally {
    await bus?.close();
    ledger.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
