import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bonusRequestMessage, Headers, Topics, type BonusRequestMessage } from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import { ManualClock, reply, type Consumer, type Message } from '@reelstream/platform-ports';
import { BonusLedgerClient, LedgerTimeoutError } from '../src/index.js';

/**
 * The client against a real embedded bus, with a stand-in for the ledger's consumer that answers
 * ListBonusCalls by the player it names: a refusal for one player, a reply off the contract for
 * another, silence for a third.
 */
const dir = mkdtempSync(join(tmpdir(), 'bonus-client-'));
const clock = new ManualClock(new Date('2026-05-01T10:00:00.000Z'));
let callerBus: SqliteMessageBus;
let ledgerBus: SqliteMessageBus;
let ledger: Consumer;
const received: Message[] = [];

beforeAll(async () => {
  const path = join(dir, 'bus.db');
  callerBus = await SqliteMessageBus.open(path, { instanceId: 'caller', synchronous: 'NORMAL' });
  ledgerBus = await SqliteMessageBus.open(path, { instanceId: 'ledger', synchronous: 'NORMAL' });
  ledger = await ledgerBus.subscribe({
    groupId: 'stand-in-ledger',
    topics: [Topics.bonusCommands],
    handler: async (message) => {
      received.push(message);
      const request = bonusRequestMessage.parse(message.value) as BonusRequestMessage;
      const playerId = (request.data as { playerId?: string }).playerId;
      if (playerId === 'silent_player') return;
      if (playerId === 'refused_player')
        return reply(ledgerBus, message, { ok: false, error: { code: 'BONUS_NOT_FOUND', message: 'no such bonus' } });
      if (playerId === 'garbled_player') return reply(ledgerBus, message, { ok: true, result: null });
      return reply(ledgerBus, message, { ok: true, result: { items: [], nextCursor: null } });
    },
  });
});

afterAll(async () => {
  await ledger.stop();
  await ledgerBus.close();
  await callerBus.close();
  rmSync(dir, { recursive: true, force: true });
});

const client = (timeoutMs = 10_000) =>
  new BonusLedgerClient({ bus: callerBus, clock, ids: new TimeOrderedIdGenerator(7), timeoutMs });

describe('BonusLedgerClient', () => {
  it('sends the command on bonus.commands keyed by player, with its metadata, and parses the reply', async () => {
    const before = received.length;
    const answer = await client().call(
      'ListBonusCalls',
      { operatorId: 'casino-a', playerId: 'player_1', limit: 10 },
      'request-1',
    );
    expect(answer).toEqual({ ok: true, result: { items: [], nextCursor: null } });
    const sent = received[before] as Message;
    expect(sent.key).toBe('casino-a:player_1');
    expect(sent.headers[Headers.messageType]).toBe('ListBonusCalls');
    expect(sent.headers[Headers.operatorId]).toBe('casino-a');
    expect(sent.value).toMatchObject({
      type: 'ListBonusCalls',
      version: 1,
      metadata: { correlationId: 'request-1', operatorId: 'casino-a', issuedAt: '2026-05-01T10:00:00.000Z' },
    });
  });

  it("returns the ledger's refusal as a value", async () => {
    expect(
      await client().call(
        'ListBonusCalls',
        { operatorId: 'casino-a', playerId: 'refused_player', limit: 10 },
        'request-2',
      ),
    ).toEqual({
      ok: false,
      error: { code: 'BONUS_NOT_FOUND', message: 'no such bonus' },
    });
  });

  it('throws on a reply that is not the contract of what was asked', async () => {
    await expect(
      client().call('ListBonusCalls', { operatorId: 'casino-a', playerId: 'garbled_player', limit: 10 }, 'request-4'),
    ).rejects.toMatchObject({ name: 'ZodError' });
  });

  it('throws LedgerTimeoutError when no reply comes in time', async () => {
    const attempt = client(300).call(
      'ListBonusCalls',
      { operatorId: 'casino-a', playerId: 'silent_player', limit: 10 },
      'request-3',
    );
    await expect(attempt).rejects.toBeInstanceOf(LedgerTimeoutError);
    await expect(attempt).rejects.toMatchObject({ type: 'ListBonusCalls', timeoutMs: 300 });
  });
});
