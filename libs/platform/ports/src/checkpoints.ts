import type { Position } from './event-store.js';

/**
 * Where a subscriber remembers how far it got. `store` is only called after the work for every
 * event up to `position` is durable, so a crash replays at most the events after the last store.
 */
export interface CheckpointStore {
  load(name: string): Promise<Position | undefined>;
  store(name: string, position: Position): Promise<void>;
}
