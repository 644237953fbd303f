import { describe, expect, it } from '@jest/globals';
import { replyGroupId } from '../src/kafka-message-bus.js';

describe('reply consumer groups', () => {
  it('gives each reply topic of an instance a group of its own', () => {
    expect(replyGroupId('gateway-7f3a', 'bonus.replies')).toBe('reply.gateway-7f3a.bonus.replies');
    expect(replyGroupId('gateway-7f3a', 'wallet.replies')).not.toBe(replyGroupId('gateway-7f3a', 'bonus.replies'));
    expect(replyGroupId('game-server-1', 'bonus.replies')).not.toBe(replyGroupId('gateway-7f3a', 'bonus.replies'));
  });
});
