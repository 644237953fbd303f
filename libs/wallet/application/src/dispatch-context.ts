/**
 * Everything a dispatch handler works with, built once per dispatcher: the ports, the walletTx
 * record, and how event metadata is derived from the bus message being handled.
 */
import type { EventContext } from '@reelstream/contracts';
import {
  BusHeaders,
  type Clock,
  type EventStore,
  type IdGenerator,
  type Message,
  type MessageBus,
  type ParkedMessageObserver,
} from '@reelstream/platform-ports';
import type { DispatchLog, OperatorLookup, OperatorWallet } from './ports.js';
import { WalletTxRepository } from './wallet-tx-repository.js';
import { WinSourceChecker } from './win-source.js';

export interface WalletDispatchDeps {
  store: EventStore;
  bus: MessageBus;
  clock: Clock;
  ids: IdGenerator;
  wallet: OperatorWallet;
  operators: OperatorLookup;
  log: DispatchLog;
  /** Told of every request refused because it does not match its source event (a forgery on the bus), to count it. */
  onRefused?: (refusal: { operatorId: string; command: 'bet' | 'win' | 'betwin'; reason: string }) => void;
  /** Told of every message the handlers park themselves (the bus reports its own parks), to count it. */
  onParked?: ParkedMessageObserver;
  /** How a pause between attempts is waited out. Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
  /** Told of every cancel message that is not delivered now for want of a readable record or of a cancel owed, to count it. */
  onCancelNotDelivered?: (event: { operatorId: string; reason: CancelNotDeliveredReason }) => void;
}

/**
 * Why a `wallet.cancels` message sent nothing (besides the operator's own answer, an open circuit or
 * an unconfigured operator): `record_unreadable`, it waits for a release that can read its record;
 * `handler_failed`, it waits for a release whose handler does not fail on it;
 * `no_cancel_requested`, its transaction owes no cancel; `not_a_cancel`, it names no transaction.
 */
export const CANCEL_NOT_DELIVERED_REASONS = [
  'record_unreadable',
  'handler_failed',
  'no_cancel_requested',
  'not_a_cancel',
] as const;
export type CancelNotDeliveredReason = (typeof CANCEL_NOT_DELIVERED_REASONS)[number];

export interface DispatchContext {
  readonly deps: WalletDispatchDeps;
  readonly records: WalletTxRepository;
  /** Checks each new win against the event it comes from. */
  readonly sources: WinSourceChecker;
  readonly sleep: (ms: number) => Promise<void>;
  now(): string;
}

export function dispatchContext(deps: WalletDispatchDeps): DispatchContext {
  return {
    deps,
    records: new WalletTxRepository(deps.store),
    sources: new WinSourceChecker(deps.store),
    sleep: deps.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    now: () => deps.clock.now().toISOString(),
  };
}

const MESSAGE_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;

/** The metadata of events recorded while handling `message`: its correlation id, the message as cause. */
export function eventContextOf(
  context: DispatchContext,
  message: Message,
  operatorId: string,
  transactionId: number,
): EventContext {
  const header = message.headers[BusHeaders.correlationId];
  return {
    correlationId: header !== undefined && MESSAGE_ID.test(header) ? header : `walletTx-${transactionId}`,
    causationId: `${message.topic}:${message.partition}:${message.offset}`.slice(0, 128),
    operatorId,
    occurredAt: context.now(),
  };
}
