/**
 * The dispatch use case's test rig: the embedded event store and bus on one temp file (opened
 * before the file's tests, closed after them), a manual clock, operators alpha and beta, and the
 * messages and wins the tests hand to the use case.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from '@jest/globals';
import { openEventStore, openMessageBus } from '@reelstream/platform-backends';
import { OperatorDirectory } from '@reelstream/platform-config';
import {
  parseOperatorsConfig,
  parseStoredEvent,
  Topics,
  walletTxStream,
  type OperatorConfig,
  type WalletBetRequest,
  type WalletWinRequest,
} from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { ManualClock, type EventStore, type Message, type MessageBus } from '@reelstream/platform-ports';
import { silentLog, type DispatchLog, type OperatorWallet, type WalletDispatchDeps } from '../../src/index.js';

/** Operators alpha and beta, each with its own wallet URL and secret. */
export const testOperators = (): OperatorConfig[] =>
  parseOperatorsConfig(
    ['alpha', 'beta'].map((id) => ({
      id,
      name: id[0]?.toUpperCase() + id.slice(1),
      apiToken: `${id}-api-token-0123456789`,
      callbackUrl: `http://${id}.example/wallet`,
      signingSecret: `${id}-secret-0123456789`,
      currency: 'EUR',
    })),
  );

export interface DispatchRig {
  readonly store: EventStore;
  readonly bus: MessageBus;
  readonly clock: ManualClock;
  readonly ids: TimeOrderedIdGenerator;
  /** What the use case needs, with `wallet` as the operators' wallet; sleeping returns at once. */
  deps(wallet: OperatorWallet, log?: DispatchLog): WalletDispatchDeps;
  /** `value` as a message the bus delivers, each at the next offset. */
  messageOf(value: unknown, topic?: string): Message;
  /** A win of 2.50 with no source event: what a forger could publish. */
  unsourcedWin(operatorId?: string, playerId?: string): WalletWinRequest;
  /** A bet of 1.00 on a new round. */
  bet(operatorId: string, playerId: string): WalletBetRequest;
  /** The event types of a walletTx stream, in order. */
  types(transactionId: number): Promise<string[]>;
}

/** Registers the hooks that open and close the rig; `store` and `bus` are there once the tests run. */
export function dispatchRig(name: string, idWorker: number, operatorIds = ['alpha', 'beta']): DispatchRig {
  const clock = new ManualClock('2026-05-01T10:00:00.000Z');
  const ids = new TimeOrderedIdGenerator(idWorker);
  const operators = new OperatorDirectory(testOperators().filter((operator) => operatorIds.includes(operator.id)));
  const dir = mkdtempSync(join(tmpdir(), `wallet-${name}-`));
  let opened: { store: EventStore; bus: MessageBus } | undefined;
  beforeAll(async () => {
    const { store } = await openEventStore(`sqlite:${join(dir, 'r.db')}`);
    opened = { store, bus: await openMessageBus(`sqlite:${join(dir, 'r.db')}`, { instanceId: name }) };
  });
  afterAll(async () => {
    await opened?.bus.close();
    await opened?.store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const backends = () => {
    if (!opened) throw new Error('the rig opens in beforeAll');
    return opened;
  };
  let offset = 0;
  const newRound = (operatorId: string, playerId: string) => ({
    transactionId: ids.next(),
    operatorId,
    playerId,
    roundId: ids.next(),
    providerId: 1,
    gameId: 2,
    currency: 'EUR',
    bonusId: 0,
    requestedAt: clock.now().toISOString(),
  });
  const rig: DispatchRig = {
    get store() {
      return backends().store;
    },
    get bus() {
      return backends().bus;
    },
    clock,
    ids,
    deps: (wallet, log = silentLog) => ({
      ...backends(),
      clock,
      ids,
      wallet,
      operators,
      log,
      sleep: async () => undefined,
    }),
    messageOf: (value, topic = Topics.walletRequests) => ({
      topic,
      partition: 0,
      offset: String(++offset),
      key: 'k',
      value,
      headers: {},
      timestamp: clock.now().toISOString(),
    }),
    unsourcedWin: (operatorId = 'alpha', playerId = 'p1') => ({
      command: 'win',
      ...newRound(operatorId, playerId),
      amountMinor: 250,
      isRoundFinished: true,
    }),
    bet: (operatorId, playerId) => ({
      command: 'bet',
      ...newRound(operatorId, playerId),
      amountMinor: 100,
      isBonusBusy: false,
    }),
    types: async (transactionId) =>
      (await rig.store.readStream(walletTxStream(transactionId))).map((event) => parseStoredEvent(event).type),
  };
  return rig;
}
