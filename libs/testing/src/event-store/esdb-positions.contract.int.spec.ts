import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { compareDecimalPositions } from '@reelstream/platform-eventstore-sqlite';
import { describeEventStoreContract } from './describe-event-store-contract.js';
import {
  compareEsdbShapedPositions,
  decodeEsdbShapedPosition,
  encodeEsdbShapedPosition,
  ESDB_POSITIONS_SCHEME,
  openTestEventStore,
} from './esdb-positions.js';

describe('EventStoreDB-shaped positions over the SQLite store', () => {
  it('orders by commit then prepare, where string order and the SQLite comparison are wrong', () => {
    const [first, second, hundredth] = ['1', '2', '100'].map(encodeEsdbShapedPosition) as [string, string, string];
    expect([first, second, hundredth]).toEqual(['9-8', '10-9', '108-107']);
    expect(compareEsdbShapedPositions(first, second)).toBeLessThan(0);
    expect(compareEsdbShapedPositions(hundredth, second)).toBeGreaterThan(0);
    expect(compareEsdbShapedPositions(second, second)).toBe(0);
    // What the class of bug does instead: a string comparison reverses the first pair, the SQLite one throws.
    expect(first > second).toBe(true);
    expect(() => compareDecimalPositions(first, second)).toThrow(RangeError);
    expect(decodeEsdbShapedPosition(hundredth)).toBe('100');
    expect(() => decodeEsdbShapedPosition('100')).toThrow(/commit-prepare/);
    expect(() => decodeEsdbShapedPosition('10-3')).toThrow(/commit-prepare/);
  });
});

describeEventStoreContract(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'reelstream-es-esdbpositions-'));
  const url = `${ESDB_POSITIONS_SCHEME}${join(dir, 'events.db')}`;
  return {
    adapter: 'sqlite+esdbpositions',
    url,
    open: () => openTestEventStore(url),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}, 'sqlite+esdbpositions');
