import type { Clock } from './clock.js';
import type { EventStore } from './event-store.js';
import type { IdGenerator } from './id-generator.js';
import type { MessageBus } from './message-bus.js';

/**
 * The ports every event-sourced service is started with (the game-server, the bonus-ledger, the
 * wallet-dispatcher): its event store, its bus, its clock and its id generator. A service's deps
 * extend this with what is its own.
 */
export interface ServicePorts {
  store: EventStore;
  bus: MessageBus;
  clock: Clock;
  ids: IdGenerator;
}
