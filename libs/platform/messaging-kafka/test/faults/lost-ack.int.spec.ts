/**
 * Publishing through a partition leader frozen (SIGSTOP) for longer than the producer's retries, then
 * thawed: the broker writes the batches it had queued, but their answers were lost. Every message
 * whose publish resolved must be in the log exactly once, and publishing must work again after the
 * thaw. Needs a cluster started by `npm run infra:kafka` (its node pids), with `KAFKA_BROKERS` naming
 * it, and `KAFKA_FAULTS=1`: `npm test` runs a short variant on one broker after jest
 * (`npm run test:kafka-faults:short`), `npm run test:kafka-faults` the long one on three.
 */
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { Kafka, logLevel } from 'kafkajs';
import type { Message, MessageBus } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { openKafkaMessageBus, parseBrokerList } from '../../src/index.js';

const brokers = process.env['KAFKA_BROKERS'];
const LONG = process.env['KAFKA_FAULTS_LONG'] === '1';
const REPOSITORY_ROOT = resolve(import.meta.dirname, '../../../../..');

interface InfraCluster {
  brokers: string;
  nodes: { nodeId: number; pid: number }[];
}

/** The cluster `npm run infra:kafka` runs, when it is the one `KAFKA_BROKERS` names. */
function infraCluster(): InfraCluster | undefined {
  try {
    const out = execFileSync('node', ['--import', 'tsx', 'scripts/kafka/infra.ts', 'status', '--json'], {
      cwd: REPOSITORY_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    const cluster = JSON.parse(out) as InfraCluster;
    return cluster.brokers === brokers ? cluster : undefined;
  } catch {
    return undefined;
  }
}

// Only on its own (`npm run test:kafka-faults:short`, run by `npm test` after jest): it freezes the
// broker, which would fail whatever else of the jest run uses it at that moment.
const cluster = brokers && process.env['KAFKA_FAULTS'] === '1' ? infraCluster() : undefined;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
/** The longest a node stays frozen when no publish is rejected: past the broker's replica.lag.time.max.ms (30 s). */
const FREEZE_CAP_MS = 45_000;

if (!cluster) {
  process.stdout.write(
    process.env['KAFKA_FAULTS'] === '1'
      ? '[kafka-faults] lost-acknowledgement case NOT run: no cluster of `npm run infra:kafka` is named by KAFKA_BROKERS (its node pids are needed to SIGSTOP the leader).\n'
      : '[kafka-faults] lost-acknowledgement case not run inside the jest run (it freezes the broker): npm run test:kafka-faults:short runs it.\n',
  );
}

(cluster ? describe : describe.skip)('publishing through a frozen partition leader (real Kafka, SIGSTOP)', () => {
  const buses: MessageBus[] = [];
  const frozen = new Set<number>();
  afterAll(async () => {
    for (const pid of frozen) process.kill(pid, 'SIGCONT');
    await Promise.allSettled(buses.map((bus) => bus.close()));
  });

  /**
   * Publishes one message at a time (all of one size: a batch whose answer was lost and the next one
   * carry the same sequence numbers once kafkajs has taken them back), freezes `victim` of the
   * topic's partition after ten, thaws it once a publish was rejected or after `FREEZE_CAP_MS`, goes
   * on until enough resolve after the thaw, and reads the topic back.
   */
  async function publishThroughFreeze(victim: 'leader' | 'follower') {
    if (!cluster) throw new Error('no cluster');
    const list = parseBrokerList(cluster.brokers);
    const topic = `faults.lost-ack.${victim}.${Date.now()}`;
    // Short request timeout: the producer's retries (5) run out within seconds of the freeze.
    const bus = await openKafkaMessageBus(list, { partitions: 1, requestTimeoutMs: 1_500 });
    buses.push(bus);
    await bus.publish(topic, { key: 'op:warm-up', value: { id: -1 } });

    const admin = new Kafka({ brokers: list, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    await admin.disconnect();
    const partition = topics[0]?.partitions[0];
    const nodeId =
      victim === 'leader' ? partition?.leader : partition?.replicas.find((replica) => replica !== partition.leader);
    const pid = cluster.nodes.find((node) => node.nodeId === nodeId)?.pid;
    if (pid === undefined) throw new Error(`no pid for the ${victim} (node ${nodeId})`);

    const resolved: number[] = [];
    const rejected: number[] = [];
    let resolvedAfterThaw = 0;
    // Asserted, not narrowed: `thaw` changes it from inside a closure, where the compiler does not look.
    let phase = 'before' as 'before' | 'frozen' | 'thawed';
    let frozenAt = 0;
    const thaw = () => {
      process.kill(pid, 'SIGCONT');
      frozen.delete(pid);
      phase = 'thawed';
    };
    const deadline = Date.now() + (LONG ? 240_000 : 120_000);
    const afterThaw = LONG ? 200 : 20;
    for (let id = 0; resolvedAfterThaw < afterThaw && Date.now() < deadline; id++) {
      try {
        await bus.publish(topic, { key: `op:p${id % 4}`, value: { id } });
        resolved.push(id);
        if (phase === 'thawed') resolvedAfterThaw++;
        else if (phase === 'frozen' && Date.now() - frozenAt > FREEZE_CAP_MS) thaw();
      } catch {
        rejected.push(id);
        if (phase === 'frozen') thaw();
        await sleep(100);
      }
      if (phase === 'before' && resolved.length >= 10) {
        process.kill(pid, 'SIGSTOP');
        frozen.add(pid);
        frozenAt = Date.now();
        phase = 'frozen';
      }
    }
    process.stdout.write(
      `[kafka-faults] ${victim} frozen: ${resolved.length} publishes resolved, ${rejected.length} rejected\n`,
    );
    expect(phase).toBe('thawed');
    // A frozen leader answers nothing, so the producer's retries run out. A frozen follower only holds
    // the leader's acknowledgement until the leader drops it from the in-sync replicas, and the two left
    // are min.insync.replicas: a publish waits (10 s here on a quiet machine) but need not fail.
    if (victim === 'leader') expect(rejected.length).toBeGreaterThan(0);
    expect(resolvedAfterThaw).toBe(afterThaw);

    const seen = new Map<number, number>();
    const reader = await openKafkaMessageBus(list);
    buses.push(reader);
    const consumer = await reader.subscribe({
      groupId: `${topic}.reader`,
      topics: [topic],
      handler: async (message: Message) => {
        const { id } = message.value as { id: number };
        seen.set(id, (seen.get(id) ?? 0) + 1);
      },
    });
    await consumer.ready;
    await eventually(() => expect(resolved.filter((id) => !seen.has(id))).toEqual([]), 60_000);
    // Published once each: a resolved one is there exactly once, a rejected one at most once.
    expect([...seen].filter(([, count]) => count > 1)).toEqual([]);
    expect(resolved.filter((id) => seen.get(id) !== 1)).toEqual([]);
  }

  it(
    'writes every message whose publish resolved exactly once, and publishes again after the leader thaws',
    () => publishThroughFreeze('leader'),
    LONG ? 400_000 : 200_000,
  );

  // With replicas, a frozen follower is what loses answers: the leader writes the batch but acks
  // (all in-sync replicas) only once the follower has it or leaves the ISR.
  (cluster && cluster.nodes.length > 1 ? it : it.skip)(
    'writes every message whose publish resolved exactly once, and publishes again after a follower thaws',
    () => publishThroughFreeze('follower'),
    LONG ? 400_000 : 200_000,
  );
});
