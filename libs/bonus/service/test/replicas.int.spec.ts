/**
 * Two bonus-ledger replicas on one SQLite data dir, each on its own connection and bus client (as
 * two processes), while registrations and free spins are decided on the same store as the gateway
 * and the game-server decide them: the relay and the expiry timer run on the one replica holding
 * their leases, and each replica keeps its own read model file.
 * Every relayed message is counted as published, before any consumer's de-duplication. Last, the replicas
 * are upgraded to a relay split into four shards (BONUS_RELAY_SHARDS).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openEventStore, openMessageBus, type OpenedEventStore } from '@reelstream/platform-backends';
import Database from 'better-sqlite3';
import { READ_MODEL_CHECKPOINT } from '@reelstream/bonus-adapters';
import { catalogLookup } from '@reelstream/bonus-application';
import { readCheckpoint } from '@reelstream/platform-eventstore-sqlite';
import { OperatorDirectory, demoOperators } from '@reelstream/platform-config';
import { bonusEventMessage, parseOperatorsConfig, Topics, walletWinRequest } from '@reelstream/contracts';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { systemClock, type Consumer, type MessageBus } from '@reelstream/platform-ports';
import { createLogger } from '@reelstream/platform-telemetry';
import { eventually } from '@reelstream/testing';
import { readModelPath, startBonusLedger, type BonusLedger } from '../src/index.js';
import { accepted, InProcessBonus, OPERATOR, registration } from './bonus-requests.js';

// Long enough that a stalled event loop on a busy machine does not lose a lease by itself.
const TTL_MS = 2_000;
const operators = new OperatorDirectory(parseOperatorsConfig(demoOperators('http://localhost:1')));

interface Replica {
  readonly instanceId: string;
  backends: OpenedEventStore;
  bus: MessageBus;
  ledger: BonusLedger;
}

let dir = '';
let clientBus: MessageBus;
let clientBackends: OpenedEventStore;
let bonus: InProcessBonus;
const taps: Consumer[] = [];
const replicas: Replica[] = [];
/** Publishes seen per eventId (bonus.events) and per transactionId (win requests). */
const eventSends = new Map<string, number>();
const winSends = new Map<number, number>();

async function startReplica(instanceId: string, workerId: number, relayShards = 1): Promise<Replica> {
  const url = `sqlite:${join(dir, 'reelstream.db')}`;
  const backends = await openEventStore(url);
  const bus = await openMessageBus(url, { instanceId });
  const ledger = await startBonusLedger(
    {
      store: backends.store,
      leases: backends.leases,
      instanceId,
      bus,
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(workerId),
      operators: (operatorId) => operators.get(operatorId),
      catalog: catalogLookup(loadCatalogFile()),
      logger: createLogger({ service: instanceId, level: 'silent' }),
    },
    { readModelFile: readModelPath(dir, instanceId), healthPort: 0, leaseTtlMs: TTL_MS, relayShards },
  );
  const replica = { instanceId, backends, bus, ledger };
  replicas.push(replica);
  return replica;
}

async function close(replica: Replica, how: 'stop' | 'abandon'): Promise<void> {
  await (how === 'stop' ? replica.ledger.stop() : replica.ledger.abandon());
  await replica.bus.close();
  await replica.backends.store.close();
  replicas.splice(replicas.indexOf(replica), 1);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ledger-replicas-'));
  clientBus = await openMessageBus(`sqlite:${join(dir, 'reelstream.db')}`, { instanceId: 'replicas-client' });
  clientBackends = await openEventStore(`sqlite:${join(dir, 'reelstream.db')}`);
  bonus = new InProcessBonus(clientBackends.store, (operatorId) => operators.get(operatorId));
  const count = <Key>(sends: Map<Key, number>, key: Key) => sends.set(key, (sends.get(key) ?? 0) + 1);
  taps.push(
    await clientBus.subscribe({
      groupId: 'replicas-tap-events',
      topics: [Topics.bonusEvents],
      handler: async (received) => void count(eventSends, bonusEventMessage.parse(received.value).eventId),
    }),
    await clientBus.subscribe({
      groupId: 'replicas-tap-wins',
      topics: [Topics.walletRequests],
      handler: async (received) => void count(winSends, walletWinRequest.parse(received.value).transactionId),
    }),
  );
  await Promise.all(taps.map((tap) => tap.ready));
}, 60_000);

afterAll(async () => {
  for (const replica of [...replicas]) await close(replica, 'stop');
  for (const tap of taps) await tap.stop();
  await clientBus?.close();
  await clientBackends?.store.close();
  rmSync(dir, { recursive: true, force: true });
});

let lastRoundId = 70_000;

/** One bonus call of `playerId` played to the end: registration, then every free spin started and settled. */
async function play(playerId: string, spins: number): Promise<void> {
  const registered = accepted(
    await bonus.register(
      registration({ platformId: `replicas-${playerId}`, playerId, spinAmount: spins, callAmountMinor: 100_000 }),
    ),
  );
  for (let spin = 1; spin <= spins; spin++) {
    const roundId = ++lastRoundId;
    const common = { operatorId: OPERATOR, playerId, issueId: registered.issueId };
    accepted(await bonus.startFreeSpin({ ...common, gameId: 101, roundId }));
    accepted(await bonus.settleFreeSpin({ ...common, roundId, winMinor: spin * 10 }));
  }
}

async function bonusEventIds(): Promise<string[]> {
  const events = await (replicas[0] as Replica).backends.store.readAll({
    filter: { streamPrefixes: ['playerBonus-'] },
  });
  return events.map((event) => event.eventId);
}

describe('two bonus-ledger replicas on one data dir', () => {
  let a: Replica;
  let b: Replica;
  beforeAll(async () => {
    a = await startReplica('ledger-replica-a', 20);
    b = await startReplica('ledger-replica-b', 21);
  }, 60_000);

  it('relay once: every bonus event and every win is published by one replica only', async () => {
    await eventually(() => expect([a.ledger.relaying, b.ledger.relaying].filter(Boolean)).toHaveLength(1));
    expect([a.ledger.expiring, b.ledger.expiring].filter(Boolean)).toHaveLength(1);
    await Promise.all(['rep_1', 'rep_2', 'rep_3', 'rep_4'].map((playerId) => play(playerId, 3)));
    const ids = await bonusEventIds();
    await eventually(() => expect(ids.filter((id) => eventSends.has(id))).toHaveLength(ids.length), 10_000);
    await eventually(() => expect(winSends.size).toBe(12));
    for (const id of ids) expect(eventSends.get(id)).toBe(1);
    for (const count of winSends.values()) expect(count).toBe(1);
    // Each replica keeps its own read model, named by its instance id, and both show every bonus call.
    for (const replica of [a, b]) {
      expect(existsSync(readModelPath(dir, replica.instanceId))).toBe(true);
      await replica.ledger.caughtUp();
      expect(replica.ledger.readModel.allRecords().filter((record) => record.status === 'completed')).toHaveLength(4);
    }
  });

  it('the other replica takes the relay over after the ttl when the holder dies, and nothing is lost', async () => {
    const [holder, other] = a.ledger.relaying ? [a, b] : [b, a];
    const killedAt = Date.now();
    await close(holder, 'abandon');
    await eventually(() => expect(other.ledger.relaying && other.ledger.expiring).toBe(true), 10_000);
    const tookOverAfterMs = Date.now() - killedAt;
    // The holder renewed at most a third of the ttl before it died.
    expect(tookOverAfterMs).toBeGreaterThanOrEqual((TTL_MS * 2) / 3 - 20);

    await Promise.all(['rep_5', 'rep_6'].map((playerId) => play(playerId, 3)));
    const ids = await bonusEventIds();
    await eventually(() => expect(ids.filter((id) => eventSends.has(id))).toHaveLength(ids.length), 10_000);
    await eventually(() => expect(winSends.size).toBe(18));
    // At most one repeat for the one kill: what the dead holder's last checkpoint had not covered.
    for (const count of [...eventSends.values(), ...winSends.values()]) expect(count).toBeLessThanOrEqual(2);
    const repeats = [...eventSends.values(), ...winSends.values()].filter((count) => count > 1).length;
    process.stdout.write(
      `[replicas] bonus-ledger relay taken over ${tookOverAfterMs} ms after its holder died (ttl ${TTL_MS} ms); ` +
        `${ids.length} events and ${winSends.size} wins relayed, ${repeats} sent twice\n`,
    );

    // The dead replica comes back under its instance id: its own read model file kept its rows and
    // position, and it catches up from there.
    const file = new Database(readModelPath(dir, holder.instanceId), { readonly: true });
    const kept = readCheckpoint(file, READ_MODEL_CHECKPOINT);
    const keptCompleted = file.prepare("SELECT count(*) FROM bonus_calls WHERE status = 'completed'").pluck().get();
    file.close();
    expect(kept).toBeDefined();
    expect(keptCompleted).toBe(4);
    const restarted = await startReplica(holder.instanceId, 22);
    const readyz = async () => (await fetch(`http://127.0.0.1:${restarted.ledger.healthPort}/readyz`)).status;
    await eventually(async () => expect(await readyz()).toBe(200), 10_000);
    await restarted.ledger.caughtUp();
    expect(restarted.ledger.readModel.allRecords().filter((record) => record.status === 'completed')).toHaveLength(6);
    // The lease stays with the replica that took it over.
    expect(restarted.ledger.relaying).toBe(false);
  });
});

describe('the relay split into shards over two replicas (docs/adr/0045-outbox-and-relay-split-into-shards.md)', () => {
  it('starts past what the one relay sent, shares the shards, and relays every later event once', async () => {
    // An upgrade: every replica of the one relay stops, two come back with four shards.
    for (const replica of [...replicas]) await close(replica, 'stop');
    const sentBefore = new Map(eventSends);
    const c = await startReplica('ledger-replica-c', 23, 4);
    const d = await startReplica('ledger-replica-d', 24, 4);
    await eventually(() => expect(c.ledger.relayShards.length + d.ledger.relayShards.length).toBe(4), 15_000);
    expect([...c.ledger.relayShards, ...d.ledger.relayShards].sort()).toEqual([0, 1, 2, 3]);
    expect(c.ledger.relayShards).toHaveLength(2);

    await Promise.all(['rep_7', 'rep_8', 'rep_9', 'rep_10', 'rep_11', 'rep_12'].map((playerId) => play(playerId, 2)));
    const ids = await bonusEventIds();
    await eventually(() => expect(ids.filter((id) => eventSends.has(id))).toHaveLength(ids.length), 10_000);
    await eventually(() => expect(winSends.size).toBe(30));
    // Nothing the one relay had sent went out again: each shard began at its last checkpoint.
    for (const [id, count] of sentBefore) expect(eventSends.get(id)).toBe(count);
    for (const id of ids.filter((id) => !sentBefore.has(id))) expect(eventSends.get(id)).toBe(1);
  });
});
