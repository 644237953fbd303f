import { describe, expect, it } from '@jest/globals';
import type { WebhookDeadLettered, WebhookLetterEvent } from '@reelstream/contracts';
import { webhookLetterDecider, type WebhookLetterCommand, type WebhookLetterState } from '../src/index.js';

const letter: WebhookDeadLettered['data'] = {
  operatorId: 'casino-a',
  webhook: {
    eventId: 'wh_0000000000000000000000000000000001',
    type: 'bonus.registered',
    bonusId: 4_503_599_627_370_497,
    playerId: 'player_1',
    sequence: 0,
    occurredAt: '2026-05-01T10:00:00.000Z',
    status: 'active',
    currency: 'EUR',
    spinsUsed: 0,
    totalWin: 0,
  },
  key: 'casino-a:4503599627370497',
  attempts: 10,
  lastError: 'HTTP 503',
  at: '2026-05-01T10:05:00.000Z',
};

const lettered: WebhookDeadLettered = { type: 'WebhookDeadLettered', data: letter };
const redriven: WebhookLetterEvent = { type: 'WebhookRedriveRequested', data: { at: '2026-05-02T09:00:00.000Z' } };

const given = (...events: WebhookLetterEvent[]): WebhookLetterState =>
  events.reduce(webhookLetterDecider.evolve, webhookLetterDecider.initialState);
const decide = (command: WebhookLetterCommand, state: WebhookLetterState) =>
  webhookLetterDecider.decide(command, state);

describe('the webhook letter decider', () => {
  it('folds: a letter stands until a re-drive is recorded, and again after the next letter', () => {
    expect(webhookLetterDecider.initialState).toEqual({ letter: null, standing: false });
    expect(given(lettered)).toEqual({ letter, standing: true });
    expect(given(lettered, redriven)).toEqual({ letter, standing: false });
    const later = { ...letter, at: '2026-05-03T00:00:00.000Z' };
    expect(given(lettered, redriven, { type: 'WebhookDeadLettered', data: later })).toEqual({
      letter: later,
      standing: true,
    });
  });

  it('writes a letter when none stands, and nothing when one stands (the same message handled again)', () => {
    expect(decide({ type: 'DeadLetter', letter }, given())).toEqual([lettered]);
    expect(decide({ type: 'DeadLetter', letter }, given(lettered, redriven))).toEqual([lettered]);
    expect(decide({ type: 'DeadLetter', letter }, given(lettered))).toEqual([]);
  });

  it('records one re-drive of a standing letter, with the request that asked when there is one', () => {
    const at = '2026-05-02T09:00:00.000Z';
    expect(decide({ type: 'RequestRedrive', at }, given(lettered))).toEqual([
      { type: 'WebhookRedriveRequested', data: { at } },
    ]);
    expect(decide({ type: 'RequestRedrive', at, requestId: 'req-7' }, given(lettered))).toEqual([
      { type: 'WebhookRedriveRequested', data: { at, requestId: 'req-7' } },
    ]);
  });

  it('refuses a re-drive of a letter re-driven already, or of a webhook never given up', () => {
    const at = '2026-05-02T09:00:00.000Z';
    expect(decide({ type: 'RequestRedrive', at }, given(lettered, redriven))).toEqual({
      type: 'Refusal',
      code: 'WEBHOOK_NOT_DEAD_LETTERED',
      message: 'the letter was re-driven already',
      retriable: false,
    });
    expect(decide({ type: 'RequestRedrive', at }, given())).toEqual({
      type: 'Refusal',
      code: 'WEBHOOK_NOT_FOUND',
      message: 'no letter was written for this webhook',
      retriable: false,
    });
  });

  it('puts a re-driven letter back as of the time given; a standing one stays as it is', () => {
    const at = '2026-05-02T09:00:05.000Z';
    expect(decide({ type: 'Reinstate', at }, given(lettered, redriven))).toEqual([
      { type: 'WebhookDeadLettered', data: { ...letter, at } },
    ]);
    expect(decide({ type: 'Reinstate', at }, given(lettered))).toEqual([]);
    expect(decide({ type: 'Reinstate', at }, given())).toEqual({
      type: 'Refusal',
      code: 'WEBHOOK_NOT_FOUND',
      message: 'no letter was written for this webhook',
      retriable: false,
    });
  });
});
