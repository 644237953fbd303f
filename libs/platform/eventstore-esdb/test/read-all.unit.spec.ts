import { describe, expect, it } from '@jest/globals';
import type { AllStreamResolvedEvent, ReadPosition } from '@eventstore/db-client';
import type { Direction } from '@reelstream/platform-ports';
import { compareEsdbPositions, encodePosition } from '../src/position.js';
import { readAllVisible, type ReadAllPage } from '../src/read-all.js';
import { resolvedEvent } from './fixtures.js';

/**
 * A `$all` log held in memory and paged the way the server pages it: forwards from a position
 * includes the event at that position; backwards from a position starts before it. `inclusiveBackwards`
 * flips the latter, to show the adapter does not depend on it.
 */
function logOf(streams: string[], { inclusiveBackwards = false } = {}) {
  const log = streams.map((streamId, index) =>
    resolvedEvent({ streamId, commit: BigInt((index + 1) * 100), prepare: BigInt((index + 1) * 100 - 3) }),
  );
  const calls: { from: ReadPosition; direction: Direction; maxCount: number }[] = [];
  const readPage: ReadAllPage = async (from, direction, maxCount) => {
    calls.push({ from, direction, maxCount });
    const positionOf = (e: AllStreamResolvedEvent) => {
      if (!e.event) throw new Error('the test log holds events only');
      return e.event.position;
    };
    if (direction === 'forwards') {
      const rest =
        from === 'start'
          ? log
          : from === 'end'
            ? []
            : log.filter((e) => compareEsdbPositions(positionOf(e), from) >= 0);
      return rest.slice(0, maxCount);
    }
    const before =
      from === 'end'
        ? log
        : from === 'start'
          ? []
          : log.filter((e) => compareEsdbPositions(positionOf(e), from) < (inclusiveBackwards ? 1 : 0));
    return [...before].reverse().slice(0, maxCount);
  };
  const positionAt = (index: number) => {
    const event = log[index]?.event;
    if (!event) throw new Error(`no event ${index} in the test log`);
    return encodePosition(event.position);
  };
  return { log, readPage, calls, positionAt };
}

const ids = (events: { streamId: string }[]) => events.map((e) => e.streamId);

describe('readAll over pages of $all', () => {
  const streams = [
    'round-1',
    '$stats-node',
    'round-2',
    'checkpoint-x',
    'walletTx-1',
    'round-3',
    '$$round-3',
    'round-4',
  ];

  it('returns every visible event in order, without system events or checkpoints', async () => {
    const { readPage } = logOf(streams);
    expect(ids(await readAllVisible(readPage))).toEqual(['round-1', 'round-2', 'walletTx-1', 'round-3', 'round-4']);
  });

  it('starts strictly after fromPosition although the server returns the event at it', async () => {
    const { readPage, positionAt } = logOf(streams);
    expect(ids(await readAllVisible(readPage, { fromPosition: positionAt(2) }))).toEqual([
      'walletTx-1',
      'round-3',
      'round-4',
    ]);
    expect(ids(await readAllVisible(readPage, { fromPosition: positionAt(7) }))).toEqual([]);
  });

  it('reads backwards from the end, and strictly before fromPosition either way the server pages', async () => {
    for (const inclusiveBackwards of [false, true]) {
      const { readPage, positionAt } = logOf(streams, { inclusiveBackwards });
      expect(ids(await readAllVisible(readPage, { direction: 'backwards' }))).toEqual([
        'round-4',
        'round-3',
        'walletTx-1',
        'round-2',
        'round-1',
      ]);
      expect(ids(await readAllVisible(readPage, { direction: 'backwards', fromPosition: positionAt(5) }))).toEqual([
        'walletTx-1',
        'round-2',
        'round-1',
      ]);
    }
  });

  it('stops at maxCount visible events and applies the prefix filter', async () => {
    const { readPage } = logOf(streams);
    expect(ids(await readAllVisible(readPage, { maxCount: 2 }))).toEqual(['round-1', 'round-2']);
    expect(ids(await readAllVisible(readPage, { filter: { streamPrefixes: ['walletTx-', 'round-4'] } }))).toEqual([
      'walletTx-1',
      'round-4',
    ]);
    expect(ids(await readAllVisible(readPage, { direction: 'backwards', maxCount: 1 }))).toEqual(['round-4']);
    expect(await readAllVisible(readPage, { maxCount: 0 })).toEqual([]);
  });

  it('pages through a long log of mostly hidden events, each page continuing where the last ended', async () => {
    const many = Array.from({ length: 3_000 }, (_, i) => (i % 100 === 99 ? `round-${i}` : `$stats-${i}`));
    const { readPage, calls } = logOf(many);
    const found = await readAllVisible(readPage, { maxCount: 25 });
    expect(ids(found)).toEqual(Array.from({ length: 25 }, (_, i) => `round-${i * 100 + 99}`));
    expect(calls.length).toBeGreaterThan(2);
    expect(calls[0]).toEqual({ from: 'start', direction: 'forwards', maxCount: 33 });
    for (const call of calls) expect(call.maxCount).toBeLessThanOrEqual(512);
    for (const call of calls.slice(1)) expect(typeof call.from).toBe('object');
  });

  it('keeps paging after a short page that is not the end (a server-filtered page may stop early)', async () => {
    const { readPage } = logOf(streams);
    const shortPages: ReadAllPage = async (from, direction, maxCount) =>
      (await readPage(from, direction, maxCount)).slice(0, 2);
    expect(ids(await readAllVisible(shortPages))).toEqual(['round-1', 'round-2', 'walletTx-1', 'round-3', 'round-4']);
    expect(ids(await readAllVisible(shortPages, { direction: 'backwards' }))).toEqual([
      'round-4',
      'round-3',
      'walletTx-1',
      'round-2',
      'round-1',
    ]);
  });
});
