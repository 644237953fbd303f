/**
 * Broker faults with real processes: the dispatcher (`apps/wallet-dispatcher/src/main.ts`, a child
 * process on BUS_URL=kafka://…) carries wins to the operator sandbox at about 100 callbacks/s while
 * Kafka nodes of `npm run infra:kafka` are SIGKILLed and started again on their data (no format):
 * - three nodes: one killed under traffic, then restarted: traffic goes on; then two killed: writes
 *   stop with a clear error and the dispatcher's readiness turns false; one restarted: writes resume;
 * - one node: the node killed is the two-down case.
 * Then: every win whose publish resolved applied exactly once at the sandbox (by transactionId), no
 * transactionId applied twice, and the figures printed. Needs `KAFKA_FAULTS=1` and a cluster of
 * `npm run infra:kafka` named by KAFKA_BROKERS: `npm run test:kafka-faults` runs it on three nodes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { openEventStore, openMessageBus } from '@reelstream/platform-backends';
import { OperatorDirectory } from '@reelstream/platform-config';
import {
  parseOperatorsConfig,
  playerKey,
  Topics,
  walletTxStream,
  type OperatorConfigInput,
  type WalletWinRequest,
} from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import type { EventStore, MessageBus } from '@reelstream/platform-ports';
import { startOperatorSandbox, type OperatorSandbox } from '@reelstream/sandbox-service';
import { eventually, recordWinSource } from '@reelstream/testing';
import { DispatcherProcess } from './dispatcher-process.js';

const brokers = process.env['KAFKA_BROKERS'];
const LONG = process.env['KAFKA_FAULTS_LONG'] === '1';
const REPOSITORY_ROOT = resolve(import.meta.dirname, '../../..');
const SECRET = 'broker-faults-signing-secret-01';
const PLAYERS = 50;
/** Wins published per tick of 100 ms: about 100 callbacks/s. */
const PER_TICK = 10;
const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const t0 = performance.now();
/** Where the case is, on stderr as it goes (a long case that hangs says where). */
const progress = (what: string) =>
  process.stderr.write(`[kafka-faults] ${((performance.now() - t0) / 1_000).toFixed(1)} s: ${what}\n`);

interface InfraNode {
  nodeId: number;
  pid: number;
}

function infra(args: string[]): string {
  return execFileSync('node', ['--import', 'tsx', 'scripts/kafka/infra.ts', ...args], {
    cwd: REPOSITORY_ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The nodes of the cluster `npm run infra:kafka` runs, when it is the one KAFKA_BROKERS names. */
function infraNodes(): InfraNode[] | undefined {
  try {
    const cluster = JSON.parse(infra(['status', '--json'])) as { brokers: string; nodes: InfraNode[] };
    return cluster.brokers === brokers ? cluster.nodes : undefined;
  } catch {
    return undefined;
  }
}

// Only on its own (KAFKA_FAULTS=1): it kills brokers that other suites would be using.
const nodes = brokers && process.env['KAFKA_FAULTS'] === '1' ? infraNodes() : undefined;
if (!nodes)
  process.stdout.write(
    '[kafka-faults] broker-kill case with the dispatcher NOT run: it needs KAFKA_FAULTS=1 and a cluster of `npm run infra:kafka` named by KAFKA_BROKERS.\n',
  );

(nodes ? describe : describe.skip)(
  'the dispatcher while Kafka nodes are SIGKILLed and restarted (real processes)',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'broker-faults-'));
    let sandbox: OperatorSandbox | undefined;
    let store: EventStore | undefined;
    let requester: MessageBus | undefined;
    let dispatcher: DispatcherProcess | undefined;
    const killed = new Set<number>();

    afterAll(async () => {
      for (const nodeId of killed) infra(['restart', '--node', String(nodeId)]);
      await dispatcher?.kill('SIGKILL');
      await requester?.close();
      await store?.close();
      await sandbox?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it(
      'carries about 100 callbacks/s through the faults: none lost, none applied twice, writes stop with two nodes down and resume',
      async () => {
        const three = (nodes?.length ?? 0) >= 3;
        const operator = (callbackUrl: string): OperatorConfigInput => ({
          id: 'faults',
          name: 'Broker faults casino',
          apiToken: 'faults-api-token-0123456789',
          callbackUrl,
          signingSecret: SECRET,
          currency: 'EUR',
        });
        sandbox = await startOperatorSandbox(
          { operators: new OperatorDirectory(parseOperatorsConfig([operator('http://localhost/')])) },
          {
            port: 0,
            host: '127.0.0.1',
            databasePath: join(dir, 'sandbox.db'),
            autoCreateBalance: undefined,
            synchronous: 'NORMAL',
            adminToken: undefined,
            latencyMs: 0,
          },
        );
        for (let n = 0; n < PLAYERS; n++) sandbox.views.setBalance('faults', `faults_player_${n}`, 'EUR', 100_000);
        ({ store } = await openEventStore(`sqlite:${join(dir, 'reelstream.db')}`));
        process.env['KAFKA_SESSION_TIMEOUT_MS'] ??= '3000';
        process.env['KAFKA_REQUEST_TIMEOUT_MS'] ??= '5000';
        requester = await openMessageBus(`kafka://${brokers}`, { instanceId: `broker-faults-${Date.now()}` });
        const ids = new TimeOrderedIdGenerator(4);
        const win = (n: number): WalletWinRequest => ({
          command: 'win',
          transactionId: ids.next(),
          operatorId: 'faults',
          playerId: `faults_player_${n % PLAYERS}`,
          roundId: ids.next(),
          providerId: 1,
          gameId: 10,
          currency: 'EUR',
          bonusId: 0,
          requestedAt: new Date().toISOString(),
          amountMinor: 100,
          isRoundFinished: true,
        });
        // The wins and their sources (each win's RoundSettled) made before the dispatcher starts: the
        // traffic is then only publishes, about 100 a second, whatever the store costs on a busy machine.
        const POOL = LONG ? 9_000 : three ? 3_000 : 800;
        const preparing = performance.now();
        const pool: WalletWinRequest[] = [];
        for (let n = 0; n < POOL; n++) pool.push(await recordWinSource(store as EventStore, win(n)));
        progress(`${POOL} wins and their sources stored in ${((performance.now() - preparing) / 1_000).toFixed(1)} s`);
        dispatcher = new DispatcherProcess({
          DATA_DIR: dir,
          BUS_URL: `kafka://${brokers}`,
          OPERATORS_JSON: JSON.stringify([operator(`${sandbox.url}/wallet/faults`)]),
          HEALTH_PORT: '0',
          INSTANCE_ID: 'broker-faults-dispatcher',
          WORKER_ID: '3',
          LOG_LEVEL: 'info',
          OTEL_SDK_DISABLED: 'true',
          KAFKA_SESSION_TIMEOUT_MS: '3000',
          KAFKA_REQUEST_TIMEOUT_MS: '5000',
        });
        await Promise.race([
          dispatcher.ready,
          dispatcher.exited.then(() => Promise.reject(new Error(`dispatcher exited: ${dispatcher?.diagnostics()}`))),
        ]);
        const started = dispatcher.lines.find((line) => line.includes('"msg":"wallet dispatcher started"')) ?? '';
        const healthPort = Number(/"healthPort":(\d+)/.exec(started)?.[1]);
        const ready = async () => {
          try {
            return (await fetch(`http://127.0.0.1:${healthPort}/readyz`)).status === 200;
          } catch {
            return false;
          }
        };

        const published = new Map<number, WalletWinRequest>();
        const publishErrors: { at: number; message: string }[] = [];
        let lastPublishedAt = 0;
        let traffic = true;
        let sent = 0;
        const refused: WalletWinRequest[][] = [];
        // One tick of 10 wins every 100 ms; a tick whose publish hangs (nodes down) holds only itself.
        const ticking = (async () => {
          const inFlight = new Set<Promise<void>>();
          while (traffic) {
            // A batch whose publish was refused goes out again first, as a game-server retries it.
            const batch = refused.shift() ?? pool.slice(sent, (sent += PER_TICK));
            if (batch.length === 0) {
              // Every prepared win is out: only refused ones come again, once their publish is answered.
              await sleep(100);
              continue;
            }
            const publish = (requester as MessageBus)
              .publish(
                Topics.walletRequests,
                batch.map((request) => ({ key: playerKey(request), value: request })),
              )
              .then(() => {
                for (const request of batch) published.set(request.transactionId, request);
                lastPublishedAt = performance.now();
              })
              .catch((error: unknown) => {
                refused.push(batch);
                publishErrors.push({
                  at: performance.now(),
                  message: error instanceof Error ? error.message : String(error),
                });
              });
            inFlight.add(publish);
            void publish.finally(() => inFlight.delete(publish));
            await sleep(100);
          }
          await Promise.all(inFlight);
        })();

        const trafficFrom = performance.now();
        const phase = (ms: number) => sleep(LONG ? ms * 2 : ms);
        const appliedCount = () =>
          (sandbox as OperatorSandbox).views.transactions({ operatorId: 'faults' }).filter((row) => row.applied).length;
        progress('dispatcher ready, traffic started');
        await phase(5_000);
        let figures = '';
        if (three) {
          const appliedBefore = appliedCount();
          infra(['kill', '--node', '2']);
          killed.add(2);
          progress(`node 2 killed (${published.size} wins published, ${appliedBefore} applied)`);
          const killedAt = performance.now();
          await phase(10_000);
          infra(['restart', '--node', '2']);
          killed.delete(2);
          progress(`node 2 restarted (${published.size} wins published, ${appliedCount()} applied)`);
          const carried = ((appliedCount() - appliedBefore) * 1_000) / (performance.now() - killedAt);
          figures += `one node SIGKILLed for ${LONG ? 20 : 10} s: ${carried.toFixed(0)} callbacks/s carried; `;
          await phase(10_000);
        }
        // Two nodes down (or the only one): no write can reach min.insync.replicas.
        const down = three ? [2, 3] : [1];
        for (const nodeId of down) {
          infra(['kill', '--node', String(nodeId)]);
          killed.add(nodeId);
        }
        const downAt = performance.now();
        progress(`nodes ${down.join(', ')} killed (${published.size} wins published, ${appliedCount()} applied)`);
        await eventually(() => expect(publishErrors.some((error) => error.at > downAt)).toBe(true), 90_000, 250);
        await eventually(async () => expect(await ready()).toBe(false), 90_000, 500);
        progress('writes refused and readiness false');
        const refusedWith = publishErrors.find((error) => error.at > downAt)?.message ?? '';
        const back = down[0] as number;
        infra(['restart', '--node', String(back)]);
        killed.delete(back);
        const backAt = performance.now();
        progress(`node ${back} restarted`);
        await eventually(() => expect(lastPublishedAt).toBeGreaterThan(backAt), 120_000, 250);
        const resumedMs = lastPublishedAt - backAt;
        await eventually(async () => expect(await ready()).toBe(true), 120_000, 500);
        const readyMs = performance.now() - backAt;
        progress(
          `writes resumed after ${(resumedMs / 1_000).toFixed(1)} s, ready after ${(readyMs / 1_000).toFixed(1)} s`,
        );
        for (const nodeId of [...killed]) {
          infra(['restart', '--node', String(nodeId)]);
          killed.delete(nodeId);
        }
        await phase(3_000);
        traffic = false;
        await ticking;
        progress(`traffic stopped: ${published.size} wins published, ${appliedCount()} applied`);
        const elapsedS = (performance.now() - trafficFrom) / 1_000;

        // Every win whose publish resolved is applied once; no transactionId twice.
        const notApplied = () => {
          const applied = new Set(
            (sandbox as OperatorSandbox).views
              .transactions({ operatorId: 'faults' })
              .filter((row) => row.applied)
              .map((row) => row.transactionId),
          );
          return [...published.keys()].filter((id) => !applied.has(id));
        };
        try {
          await eventually(() => expect(notApplied()).toEqual([]), LONG ? 180_000 : 90_000, 500);
        } catch (error) {
          // What the dispatcher's record says of the first few, to tell a lost message from a stuck one.
          const states = await Promise.all(
            notApplied()
              .slice(0, 5)
              .map(async (id) => {
                const events = await (store as EventStore).readStream(walletTxStream(id));
                return `${id}: ${events.map((event) => event.type).join(', ') || 'no walletTx event'}`;
              }),
          );
          progress(`${notApplied().length} published wins not applied; ${states.join(' | ')}`);
          throw error;
        }
        const rows = (sandbox as OperatorSandbox).views.transactions({ operatorId: 'faults' });
        const perId = new Map<number, number>();
        for (const row of rows.filter((entry) => entry.applied))
          perId.set(row.transactionId, (perId.get(row.transactionId) ?? 0) + 1);
        const twice = [...perId.entries()].filter(([, count]) => count > 1);
        const lost = [...published.keys()].filter((id) => !perId.has(id));
        expect(twice).toEqual([]);
        expect(lost).toEqual([]);
        // Each player's balance moved by exactly the wins applied.
        for (let n = 0; n < PLAYERS; n++) {
          const playerId = `faults_player_${n}`;
          const wins = rows.filter((row) => row.playerId === playerId && row.applied).length;
          expect((sandbox as OperatorSandbox).views.accounts('faults', playerId)[0]?.balanceMinor).toBe(
            100_000 + wins * 100,
          );
        }
        expect(refusedWith).not.toBe('');
        const replays = (sandbox as OperatorSandbox).views
          .requests({ operatorId: 'faults' })
          .filter((entry) => entry.outcome === 'replayed').length;
        process.stdout.write(
          `broker faults (${nodes?.length} node${three ? 's' : ''}, ${elapsedS.toFixed(0)} s): ${figures}` +
            `${published.size} wins published and applied (${(rows.length / elapsedS).toFixed(0)} callbacks/s over the run), ` +
            `0 lost, ${twice.length} applied twice, ${replays} answered as replays; ` +
            `${down.length} node${down.length > 1 ? 's' : ''} down: writes refused ("${refusedWith.slice(0, 160)}"), readiness false; ` +
            `writes resumed ${(resumedMs / 1_000).toFixed(1)} s and readiness ${(readyMs / 1_000).toFixed(1)} s after node ${back} came back; ` +
            `${publishErrors.length} publishes refused in all (their wins not counted as published)\n`,
        );
        expect((await dispatcher.kill('SIGTERM')).code).toBe(0);
      },
      LONG ? 900_000 : 600_000,
    );
  },
);
