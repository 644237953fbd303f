import { describe, expect, it } from '@jest/globals';
import { MissingPositionError, parseMetadata, toRecordedEvent, toVisibleAllEvent } from '../src/recorded-event.js';
import { isSystemEvent, isVisibleInAll } from '../src/stream-names.js';
import { resolvedEvent } from './fixtures.js';

describe('recorded event mapping', () => {
  it('maps a resolved event onto the port shape: number revision, encoded position, ISO time, parsed metadata', () => {
    const event = toRecordedEvent(
      resolvedEvent({
        streamId: 'round-7',
        revision: 3n,
        type: 'RoundSettled',
        data: { win: 150 },
        metadata: { correlationId: 'c-1', schemaVersion: 2 },
        commit: 5000n,
        prepare: 4990n,
        id: '0b7d1c1e-8f5a-4d44-9c38-5d1e2f9a7b10',
        created: new Date('2026-03-01T10:15:30.123Z'),
      }),
    );
    expect(event).toEqual({
      streamId: 'round-7',
      revision: 3,
      position: '00000000000000005000-00000000000000004990',
      eventId: '0b7d1c1e-8f5a-4d44-9c38-5d1e2f9a7b10',
      type: 'RoundSettled',
      data: { win: 150 },
      metadata: { correlationId: 'c-1', schemaVersion: 2 },
      recordedAt: '2026-03-01T10:15:30.123Z',
    });
  });

  it('reads JSON metadata stored as bytes, and anything that is not a JSON object as {}', () => {
    expect(parseMetadata(Buffer.from('{"operatorId":"op-1"}'))).toEqual({ operatorId: 'op-1' });
    expect(parseMetadata(new Uint8Array(Buffer.from('not json')))).toEqual({});
    expect(parseMetadata(Buffer.from('[1,2]'))).toEqual({});
    expect(parseMetadata(undefined)).toEqual({});
    expect(parseMetadata('a string')).toEqual({});
    expect(parseMetadata([1])).toEqual({});
    expect(parseMetadata({ traceparent: '00-abc-def-01' })).toEqual({ traceparent: '00-abc-def-01' });
  });

  it('skips a resolved event without an event (an unresolved link)', () => {
    expect(toRecordedEvent({ commitPosition: 10n })).toBeUndefined();
  });

  it('refuses an event whose $all position the server did not send', () => {
    const unknown = resolvedEvent({ streamId: 'round-1', commit: 2n ** 64n - 1n });
    expect(() => toRecordedEvent(unknown)).toThrow(MissingPositionError);
    const missing = resolvedEvent({ streamId: 'round-1', commit: 1n });
    delete (missing.event as { position?: unknown }).position;
    expect(() => toRecordedEvent(missing)).toThrow(/without its \$all position/);
  });
});

describe('what $all readers see', () => {
  it('drops system streams, system event types and checkpoint streams', () => {
    expect(isSystemEvent('$stats-127.0.0.1:2113', 'StatsCollected')).toBe(true);
    expect(isSystemEvent('$$round-1', '$metadata')).toBe(true);
    expect(isSystemEvent('round-1', '$>')).toBe(true);
    expect(isSystemEvent('round-1', 'RoundStarted')).toBe(false);
    expect(isVisibleInAll('checkpoint-relay', 'CheckpointStored')).toBe(false);
    expect(
      toVisibleAllEvent(resolvedEvent({ streamId: '$scavenges', type: '$scavengeStarted', commit: 1n })),
    ).toBeUndefined();
    expect(
      toVisibleAllEvent(resolvedEvent({ streamId: 'checkpoint-relay', type: 'CheckpointStored', commit: 2n })),
    ).toBeUndefined();
    expect(toVisibleAllEvent(resolvedEvent({ streamId: 'round-1', commit: 3n }))?.streamId).toBe('round-1');
  });

  it('keeps only the filter prefixes when there is a filter', () => {
    const filter = { streamPrefixes: ['playerBonus-', 'walletTx-'] };
    expect(toVisibleAllEvent(resolvedEvent({ streamId: 'playerBonus-op-p1', commit: 1n }), filter)).toBeDefined();
    expect(toVisibleAllEvent(resolvedEvent({ streamId: 'walletTx-9', commit: 2n }), filter)).toBeDefined();
    expect(toVisibleAllEvent(resolvedEvent({ streamId: 'round-1', commit: 3n }), filter)).toBeUndefined();
    expect(
      toVisibleAllEvent(resolvedEvent({ streamId: 'round-1', commit: 3n }), { streamPrefixes: [] }),
    ).toBeUndefined();
  });
});
