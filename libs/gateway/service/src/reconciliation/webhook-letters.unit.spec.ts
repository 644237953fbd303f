import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { SqliteReconciliationReadModel } from '@reelstream/wallet-adapters';
import { startReconciliationProjection, type ReconciliationProjection } from '@reelstream/wallet-application';
import { writeWebhookLetter } from '../../test/support/wallet-history.js';
import { WebhookLetters, type FoundWebhookLetter } from './webhook-letters.js';

let store: SqliteEventStore;
let readModel: SqliteReconciliationReadModel;
let projection: ReconciliationProjection;
let letters: WebhookLetters;
/** Casino A's four letters, in the order they were dead-lettered. */
const ofA: string[] = [];
let ofB: string;

const contextOf = (operatorId: string, at: string) => ({
  correlationId: randomUUID(),
  causationId: randomUUID(),
  operatorId,
  occurredAt: at,
  requestId: `req-${randomUUID()}`,
  at,
});

beforeAll(async () => {
  store = SqliteEventStore.open(':memory:');
  readModel = SqliteReconciliationReadModel.open(':memory:', {
    comparePositions: (x, y) => store.comparePositions(x, y),
  });
  projection = startReconciliationProjection({ store, projection: readModel, retryDelayMs: 10 });
  letters = new WebhookLetters(store, () => ({ readModel, projection }));
  for (const hour of [10, 11, 12, 13]) {
    ofA.push(await writeWebhookLetter(store, 'casino-a', 'shared_player', `2026-05-01T${hour}:00:00.000Z`));
    // B's letters, between A's, with the same player id: never in A's pages.
    if (hour === 11) ofB = await writeWebhookLetter(store, 'casino-b', 'shared_player', '2026-05-01T11:30:00.000Z');
  }
});
afterAll(async () => {
  await projection.stop();
  readModel.close();
  await store.close();
});

const idsOf = (items: { eventId: string }[]) => items.map((item) => item.eventId);

describe('WebhookLetters.page', () => {
  it('reads at most `limit` letters, and the place of the last of them when more follow', async () => {
    const first = await letters.page({ operatorId: 'casino-a', limit: 3 });
    expect(idsOf(first.items)).toEqual(ofA.slice(0, 3));
    expect(first.lastSeq).not.toBeUndefined();
    // The next page starts right after the last letter of this one: nothing repeated, nothing skipped.
    const rest = await letters.page({ operatorId: 'casino-a', limit: 3, afterSeq: first.lastSeq as number });
    expect([idsOf(rest.items), rest.lastSeq]).toEqual([ofA.slice(3), undefined]);
    const one = await letters.page({ operatorId: 'casino-a', limit: 1 });
    expect(idsOf(one.items)).toEqual(ofA.slice(0, 1));
    const next = await letters.page({ operatorId: 'casino-a', limit: 1, afterSeq: one.lastSeq as number });
    expect(idsOf(next.items)).toEqual(ofA.slice(1, 2));
    expect((await letters.page({ operatorId: 'casino-a', limit: 4 })).lastSeq).toBeUndefined();
  });

  it("lists only the operator's own letters", async () => {
    expect(idsOf((await letters.page({ operatorId: 'casino-b', limit: 10 })).items)).toEqual([ofB]);
    expect((await letters.page({ operatorId: 'casino-c', limit: 10 })).items).toEqual([]);
  });
});

describe('WebhookLetters.find and reinstate', () => {
  it("finds the operator's own letter only: another operator's reads as never dead-lettered", async () => {
    const found = await letters.find('casino-a', ofA[0] as string);
    expect(found).toMatchObject({
      standing: true,
      revision: 0,
      view: { eventId: ofA[0], attempts: 10, lastError: 'HTTP 503', deadLetteredAt: '2026-05-01T10:00:00.000Z' },
    });
    expect(await letters.find('casino-b', ofA[0] as string)).toBeUndefined();
  });

  it('stands again after a re-drive that could not be sent: a copy of the letter, at the time it was put back', async () => {
    const eventId = ofA[1] as string;
    const before = (await letters.find('casino-a', eventId)) as FoundWebhookLetter;
    expect(before.standing).toBe(true);
    expect(await letters.markRedriven(before, contextOf('casino-a', '2026-05-02T09:00:00.000Z'))).toBe(true);
    expect(await letters.find('casino-a', eventId)).toMatchObject({ standing: false, revision: 1 });
    // A second re-drive of the letter as it was read: the stream moved, nothing is recorded.
    expect(await letters.markRedriven(before, contextOf('casino-a', '2026-05-02T09:00:01.000Z'))).toBe(false);
    const redriven = (await letters.find('casino-a', eventId)) as FoundWebhookLetter;
    // Nor on the letter as it is now: it no longer stands.
    expect(await letters.markRedriven(redriven, contextOf('casino-a', '2026-05-02T09:00:02.000Z'))).toBe(false);
    expect(redriven).toMatchObject({ standing: false, revision: 1 });

    await letters.reinstate(before.letter, contextOf('casino-a', '2026-05-02T09:00:05.000Z'));
    const again = await letters.find('casino-a', eventId);
    expect(again).toMatchObject({ standing: true, revision: 2 });
    expect(again?.letter).toEqual({ ...before.letter, at: '2026-05-02T09:00:05.000Z' });
    expect(again?.view.deadLetteredAt).toBe('2026-05-02T09:00:05.000Z');
    // Listed again, now in the place of its latest dead letter: after the others.
    const page = await letters.page({ operatorId: 'casino-a', limit: 10 });
    expect(idsOf(page.items)).toEqual([ofA[0], ofA[2], ofA[3], eventId]);
  });
});
