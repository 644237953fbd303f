import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bonusRequestMessage, RefusedError, Topics, type BonusRequestMessage } from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import { ManualClock, reply, type Consumer } from '@reelstream/platform-ports';
import { createLogger } from '@reelstream/platform-telemetry';
import { LedgerClient } from '../src/ledger/ledger-client.js';

/**
 * The gateway's ledger calls against a real embedded bus and a stand-in for the ledger's consumer:
 * a refusal is thrown as the RefusedError of its code; silence past the time limit is a 503 whose
 * retry time is the limit in whole seconds, logged with the request id.
 */
const dir = mkdtempSync(join(tmpdir(), 'gateway-ledger-client-'));
const clock = new ManualClock(new Date('2026-05-01T10:00:00.000Z'));
const logs: string[] = [];
let gatewayBus: SqliteMessageBus;
let ledgerBus: SqliteMessageBus;
let ledger: Consumer;

beforeAll(async () => {
  const path = join(dir, 'bus.db');
  gatewayBus = await SqliteMessageBus.open(path, { instanceId: 'gateway', synchronous: 'NORMAL' });
  ledgerBus = await SqliteMessageBus.open(path, { instanceId: 'ledger', synchronous: 'NORMAL' });
  ledger = await ledgerBus.subscribe({
    groupId: 'stand-in-ledger',
    topics: [Topics.bonusCommands],
    handler: async (message) => {
      const request = bonusRequestMessage.parse(message.value) as BonusRequestMessage;
      const playerId = (request.data as { playerId?: string }).playerId;
      if (playerId === 'silent_player') return;
      if (playerId === 'refused_player')
        return reply(ledgerBus, message, {
          ok: false,
          error: { code: 'BONUS_NOT_FOUND', message: 'no such bonus', details: [{ path: 'issueId', message: 'x' }] },
        });
      return reply(ledgerBus, message, { ok: true, result: { items: [], nextCursor: null } });
    },
  });
});

afterAll(async () => {
  await ledger.stop();
  await ledgerBus.close();
  await gatewayBus.close();
  rmSync(dir, { recursive: true, force: true });
});

const client = (timeoutMs: number) =>
  new LedgerClient({
    bus: gatewayBus,
    clock,
    ids: new TimeOrderedIdGenerator(9),
    logger: createLogger({ service: 'gateway-test', destination: { write: (line: string) => logs.push(line) } }),
    timeoutMs,
  });

const list = (playerId: string) => ({
  type: 'ListBonusCalls' as const,
  data: { operatorId: 'casino-a', playerId, limit: 10 },
  requestId: `request-${playerId}`,
});

describe("the gateway's ledger calls", () => {
  it("returns the ledger's result", async () => {
    expect(await client(10_000).call(list('player_1'))).toEqual({ items: [], nextCursor: null });
  });

  it("throws the ledger's refusal as the RefusedError of its code, with its details", async () => {
    const refused = await client(10_000)
      .call(list('refused_player'))
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RefusedError);
    expect(refused).toMatchObject({
      code: 'BONUS_NOT_FOUND',
      status: 404,
      message: 'no such bonus',
      details: [{ path: 'issueId', message: 'x' }],
      retriable: false,
    });
    expect((refused as RefusedError).retryAfterSeconds).toBeUndefined();
  });

  it('answers a ledger that does not reply in time 503 with Retry-After of the time limit in whole seconds', async () => {
    const timedOut = await client(1_200)
      .call(list('silent_player'))
      .catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(RefusedError);
    expect(timedOut).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      retriable: true,
      retryAfterSeconds: 2,
      message:
        'The bonus service did not answer in time; retry later (a retried registration with the same platformId is safe).',
    });
    const warning = logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => entry.msg === 'bonus-ledger did not answer in time');
    expect(warning).toMatchObject({ requestId: 'request-silent_player', type: 'ListBonusCalls', timeoutMs: 1_200 });
  });

  it('never gives less than one second to come back', async () => {
    await expect(client(150).call(list('silent_player'))).rejects.toMatchObject({ retryAfterSeconds: 1 });
  });
});
