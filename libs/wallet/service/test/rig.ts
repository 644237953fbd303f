/**
 * A real dispatcher against a real sandbox for tests: the embedded SQLite event store and bus on
 * a temp file, the sandbox on a free port with its own SQLite file, operators whose callback URL
 * is that sandbox. Requests go in as the game-server sends them (`bus.request` on wallet.requests).
 */
import { join } from 'node:path';
import { openEventStore, openMessageBus } from '@reelstream/platform-backends';
import { OperatorDirectory } from '@reelstream/platform-config';
import {
  parseOperatorsConfig,
  parseStoredEvent,
  playerKey,
  roundStream,
  Topics,
  walletReply,
  walletTxStream,
  type OperatorConfigInput,
  type WalletBetRequest,
  type WalletReply,
  type WalletRequestsMessage,
  type WalletWinRequest,
} from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { systemClock, type EventStore, type Message, type MessageBus } from '@reelstream/platform-ports';
import { recordStakeSource, recordWinSource } from '@reelstream/testing';
import type { OperatorSandbox } from '@reelstream/sandbox-service';
import { createLogger } from '@reelstream/platform-telemetry';
import { operatorDirectory, startTestSandbox, testOperator } from '../../../sandbox/service/test/test-sandbox.js';
import { startWalletDispatcher, type WalletDispatcher } from '../src/index.js';

const SECRET = 'rig-signing-secret-0123456789';

const operator = (id: string, callbackUrl: string, signingSecret = SECRET): OperatorConfigInput =>
  testOperator(id, signingSecret, { callbackUrl });

export interface Rig {
  sandbox: OperatorSandbox;
  store: EventStore;
  dispatcher: WalletDispatcher;
  /** The game-server's side of the bus. */
  requester: MessageBus;
  /** Everything published on wallet.dead-letters so far. */
  deadLetters: Message[];
  operators: OperatorDirectory;
  /**
   * Sends `message` as the game-server does: a bet or betwin whose round has no events yet gets its
   * RoundStarted stored first (its source), unless `forged` (published with no round behind it).
   */
  request(message: WalletRequestsMessage, timeoutMs?: number, options?: { forged?: boolean }): Promise<WalletReply>;
  /** Stops the dispatcher (as a deploy would) and starts another on the same back ends; `configureLate` adds operator `late` to its config. */
  restartDispatcher(options?: { configureLate?: boolean }): Promise<void>;
  /** The dispatcher's log lines, parsed. */
  logs: Record<string, unknown>[];
  events(transactionId: number): Promise<{ type: string; data: Record<string, unknown> }[]>;
  stop(): Promise<void>;
}

/**
 * Operator `rig` signs with the secret the sandbox knows; `missigned` with another one; `late`
 * has a wallet at the sandbox but is not in the dispatcher's config until `restartDispatcher({ configureLate: true })`.
 */
export async function startRig(): Promise<Rig> {
  const sandboxOperators = operatorDirectory(['rig', 'missigned', 'late'].map((id) => testOperator(id, SECRET)));
  const sandbox = await startTestSandbox('wallet-dispatcher-rig', { operators: sandboxOperators });
  const dir = sandbox.dir;
  const configured = [
    operator('rig', `${sandbox.url}/wallet/rig`),
    operator('missigned', `${sandbox.url}/wallet/missigned`, 'not-the-secret-the-wallet-knows'),
  ];
  let operators = new OperatorDirectory(parseOperatorsConfig(configured));
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger({
    service: 'rig',
    level: 'warn',
    destination: { write: (line: string) => logs.push(JSON.parse(line) as Record<string, unknown>) },
  });
  const url = `sqlite:${join(dir, 'reelstream.db')}`;
  const { store } = await openEventStore(url);
  const bus = await openMessageBus(url, { instanceId: 'rig-dispatcher' });
  const requester = await openMessageBus(url, { instanceId: 'rig-requester' });
  const start = () =>
    startWalletDispatcher(
      { store, bus, clock: systemClock, ids: new TimeOrderedIdGenerator(7), logger, operators },
      { healthPort: 0, healthHost: '127.0.0.1', maxSockets: 64 },
    );
  let dispatcher = await start();
  const deadLetters: Message[] = [];
  const watcher = await requester.subscribe({
    groupId: 'rig-dead-letters',
    topics: [Topics.walletDeadLetters],
    handler: async (message) => void deadLetters.push(message),
  });
  await Promise.all([dispatcher.ready, watcher.ready]);

  return {
    sandbox,
    store,
    get dispatcher() {
      return dispatcher;
    },
    requester,
    deadLetters,
    get operators() {
      return operators;
    },
    logs,
    async restartDispatcher(options = {}) {
      await dispatcher.stop();
      if (options.configureLate)
        operators = new OperatorDirectory(
          parseOperatorsConfig([...configured, operator('late', `${sandbox.url}/wallet/late`)]),
        );
      dispatcher = await start();
      await dispatcher.ready;
    },
    async request(message, timeoutMs = 30_000, options = {}) {
      const stake = message.command === 'bet' || message.command === 'betwin';
      if (stake && !options.forged && (await store.streamRevision(roundStream(message.roundId))) === undefined)
        await recordStakeSource(store, message);
      const answer = await requester.request(
        Topics.walletRequests,
        { key: playerKey(message), value: message },
        { replyTopic: Topics.walletReplies, timeoutMs },
      );
      return walletReply.parse(answer.value);
    },
    async events(transactionId) {
      return (await store.readStream(walletTxStream(transactionId))).map(
        (event) => parseStoredEvent(event) as { type: string; data: Record<string, unknown> },
      );
    },
    async stop() {
      await watcher.stop();
      await dispatcher.stop();
      await Promise.all([bus.close(), requester.close()]);
      await store.close();
      await sandbox.stop();
    },
  };
}

const ids = new TimeOrderedIdGenerator(8);
export const nextId = () => ids.next();

/** What every request of a new round of `playerId` at `operatorId` carries, as the game-server writes it. */
const newRound = (playerId: string, operatorId: string) => ({
  transactionId: nextId(),
  operatorId,
  playerId,
  roundId: nextId(),
  providerId: 1,
  gameId: 10,
  currency: 'EUR',
  bonusId: 0,
  requestedAt: new Date().toISOString(),
});

/** A request as the game-server writes it. */
export function betRequest(playerId: string, amountMinor = 1_000, operatorId = 'rig'): WalletBetRequest {
  return { command: 'bet', ...newRound(playerId, operatorId), amountMinor, isBonusBusy: false };
}

/** A win with no source event: what a forger could publish on the bus. */
export function unsourcedWin(playerId: string, amountMinor = 500, operatorId = 'rig'): WalletWinRequest {
  return { command: 'win', ...newRound(playerId, operatorId), amountMinor, isRoundFinished: true };
}

/** A win as the game-server's outbox publishes it: its round's RoundSettled is stored first. */
export function winRequest(
  store: EventStore,
  playerId: string,
  amountMinor = 500,
  operatorId = 'rig',
): Promise<WalletWinRequest> {
  return recordWinSource(store, unsourcedWin(playerId, amountMinor, operatorId));
}
