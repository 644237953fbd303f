import { describe, expect, it } from '@jest/globals';
import { Headers, HttpHeaders } from './headers.js';
import { bonusWebhookKey, playerKey, TopicKeys, Topics } from './topics.js';

describe('bus headers', () => {
  it('are lower-case and distinct', () => {
    const names = Object.values(Headers);
    for (const name of names) expect(name).toBe(name.toLowerCase());
    expect(new Set(names).size).toBe(names.length);
  });

  it('names the HTTP headers of the API and the callbacks (D8, D17)', () => {
    expect(HttpHeaders).toMatchObject({
      requestId: 'X-Request-Id',
      idempotentReplayed: 'Idempotent-Replayed',
      retryAfter: 'Retry-After',
      requestSignature: 'X-Request-Signature',
      requestTimestamp: 'X-Request-Timestamp',
    });
  });
});

describe('topics and their keys (docs/architecture.md "Data")', () => {
  it('has the eight topics, the three delay topics and the two group-only topics, each with its key', () => {
    expect(Object.values(Topics).sort()).toEqual([
      'bonus.commands',
      'bonus.events',
      'bonus.replies',
      'bonus.webhooks',
      'game-server.shares',
      'gateway.limits',
      'wallet.cancels',
      'wallet.dead-letters',
      'wallet.replies',
      'wallet.requests',
      'wallet.retry.1s',
      'wallet.retry.30s',
      'wallet.retry.5s',
    ]);
    expect(Object.keys(TopicKeys).sort()).toEqual(Object.values(Topics).sort());
    expect(TopicKeys['wallet.requests']).toBe('operatorId:playerId');
    expect(TopicKeys['bonus.replies']).toBe('correlationId');
    expect(TopicKeys['wallet.cancels']).toBe('operatorId:playerId');
    // One bonus's webhooks in order; the key names the operator too.
    expect(TopicKeys['bonus.webhooks']).toBe('operatorId:issueId');
    expect(bonusWebhookKey({ operatorId: 'casino_a', bonusId: 7 })).toBe('casino_a:7');
    // Two operators may both have a player_1: their messages must never share a key.
    expect(playerKey({ operatorId: 'casino_a', playerId: 'player_1' })).not.toBe(
      playerKey({ operatorId: 'casino_b', playerId: 'player_1' }),
    );
  });
});
