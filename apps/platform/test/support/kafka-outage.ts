/**
 * A Kafka broker of `npm run infra:kafka` (scripts/kafka/infra.ts) SIGKILLed under the replica
 * proof's traffic and started again on its data: with one broker, a short total outage of the bus.
 * The infra script runs as a child process, asynchronously, so the traffic goes on meanwhile.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { REPOSITORY_ROOT } from './app-process.js';
import type { ReplicaCluster } from './replica-cluster.js';
import { sleep } from './replica-traffic.js';

const run = promisify(execFile);

/**
 * How long after the broker answers again the outage still explains a failure: a client that was
 * refused retries with a back-off, and a replica that failed to start is started again a second later.
 */
export const OUTAGE_GRACE_MS = 15_000;

async function infra(args: string[]): Promise<string> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/kafka/infra.ts', ...args], {
    cwd: REPOSITORY_ROOT,
    encoding: 'utf8',
  });
  return stdout;
}

/** The first node of the cluster `npm run infra:kafka` runs, when it is the one `brokers` names. */
export async function infraKafkaNode(brokers: string): Promise<number | undefined> {
  try {
    const cluster = JSON.parse(await infra(['status', '--json'])) as { brokers: string; nodes: { nodeId: number }[] };
    return cluster.brokers === brokers ? cluster.nodes[0]?.nodeId : undefined;
  } catch {
    return undefined;
  }
}

/** Milliseconds since the cluster started. */
export interface BrokerOutage {
  node: number;
  killedAtMs: number;
  restartedAtMs: number;
  /** When the cluster answered a metadata request again (undefined: not within two minutes). */
  servingAgainAtMs: number | undefined;
}

/** Whether the cluster answers: a new admin client connects and lists the topics. */
async function answers(brokers: string): Promise<boolean> {
  const admin = new Kafka({
    clientId: 'replica-proof-outage',
    brokers: brokers.split(','),
    logLevel: logLevel.NOTHING,
    connectionTimeout: 1_000,
    retry: { retries: 0 },
  }).admin();
  try {
    await admin.connect();
    await admin.listTopics();
    return true;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/** After `afterMs`, SIGKILLs node `node`, restarts it `downMs` later, and waits until the cluster answers again. */
export async function brokerOutage(
  cluster: ReplicaCluster,
  brokers: string,
  node: number,
  { afterMs, downMs }: { afterMs: number; downMs: number },
): Promise<BrokerOutage> {
  const since = () => Date.now() - cluster.startedAt;
  await sleep(afterMs);
  process.stderr.write(`[replicas] +${Math.round(since() / 1_000)}s: Kafka node ${node} SIGKILLed\n`);
  cluster.brokerDown = { from: since() };
  await infra(['kill', '--node', String(node)]);
  const killedAtMs = since();
  await sleep(downMs);
  await infra(['restart', '--node', String(node)]);
  const restartedAtMs = since();
  let servingAgainAtMs: number | undefined;
  while (since() - restartedAtMs < 120_000) {
    if (await answers(brokers)) {
      servingAgainAtMs = since();
      cluster.brokerDown = { from: killedAtMs, servingAgain: servingAgainAtMs };
      break;
    }
    await sleep(500);
  }
  process.stderr.write(
    `[replicas] +${Math.round(since() / 1_000)}s: Kafka node ${node} restarted at +${Math.round(restartedAtMs / 1_000)}s, ${servingAgainAtMs === undefined ? 'not serving after 2 minutes' : 'serving again'}\n`,
  );
  return { node, killedAtMs, restartedAtMs, servingAgainAtMs };
}
