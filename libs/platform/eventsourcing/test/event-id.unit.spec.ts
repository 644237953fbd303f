import { describe, expect, it } from '@jest/globals';
import * as z from 'zod';
import { deterministicEventId } from '../src/index.js';

const event = { type: 'BonusCallRegistered', data: { issueId: 5 } };

describe('deterministicEventId', () => {
  it('is a version-8 UUID, the same for the same command, stream, revision, index and event', () => {
    const id = deterministicEventId('cmd-1', 'playerBonus-demo-p', 3, 0, event);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(z.uuid().safeParse(id).success).toBe(true);
    expect(deterministicEventId('cmd-1', 'playerBonus-demo-p', 3, 0, { ...event })).toBe(id);
  });

  it('differs when any one input differs', () => {
    const id = deterministicEventId('cmd-1', 'playerBonus-demo-p', 3, 0, event);
    const others = [
      deterministicEventId('cmd-2', 'playerBonus-demo-p', 3, 0, event),
      deterministicEventId('cmd-1', 'playerBonus-demo-q', 3, 0, event),
      deterministicEventId('cmd-1', 'playerBonus-demo-p', 4, 0, event),
      deterministicEventId('cmd-1', 'playerBonus-demo-p', 'no_stream', 0, event),
      deterministicEventId('cmd-1', 'playerBonus-demo-p', 3, 1, event),
      deterministicEventId('cmd-1', 'playerBonus-demo-p', 3, 0, { ...event, type: 'BonusCallCanceled' }),
      deterministicEventId('cmd-1', 'playerBonus-demo-p', 3, 0, { ...event, data: { issueId: 6 } }),
    ];
    expect(new Set([id, ...others]).size).toBe(others.length + 1);
  });
});
