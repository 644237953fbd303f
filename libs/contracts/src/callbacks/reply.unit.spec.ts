import { describe, expect, it } from '@jest/globals';
import {
  CallbackStatusCodesByCommand,
  isStatusCodeAllowed,
  parseOperatorReply,
  parseOperatorReplyText,
} from './reply.js';

describe('operator reply: {balance, statusCode} (spec §6, §7)', () => {
  it('accepts an OK reply and an error reply that still carries the balance', () => {
    expect(parseOperatorReply({ balance: 98.5, statusCode: 'OK' })).toEqual({
      valid: true,
      statusCode: 'OK',
      balance: 98.5,
    });
    expect(parseOperatorReply({ balance: 0.2, statusCode: 'ERR_NOT_ENOUGH_MONEY' }, 'bet')).toEqual({
      valid: true,
      statusCode: 'ERR_NOT_ENOUGH_MONEY',
      balance: 0.2,
    });
  });

  it('ignores extra keys an operator adds', () => {
    expect(parseOperatorReply({ balance: 1, statusCode: 'OK', currency: 'EUR', txId: 'x' })).toEqual({
      valid: true,
      statusCode: 'OK',
      balance: 1,
    });
  });
});

describe('operator reply: anything malformed is ERR_UNKNOWN with the reason (spec §7, docs/architecture.md flow 5)', () => {
  it.each([
    [null, /malformed operator reply/],
    ['OK', /malformed operator reply/],
    [[], /malformed operator reply/],
    [{}, /balance/],
    [{ statusCode: 'OK' }, /balance/],
    [{ balance: '10.00', statusCode: 'OK' }, /balance/],
    [{ balance: null, statusCode: 'OK' }, /balance/],
    [{ balance: 10 }, /statusCode/],
    [{ balance: 10, statusCode: 'ok' }, /statusCode/],
    [{ balance: 10, statusCode: 'ERR_TIMEOUT' }, /statusCode/],
  ])('%j → ERR_UNKNOWN', (reply, reason) => {
    const parsed = parseOperatorReply(reply, 'bet');
    expect(parsed).toMatchObject({ valid: false, statusCode: 'ERR_UNKNOWN', balance: null });
    expect(!parsed.valid && parsed.reason).toMatch(reason);
  });

  it('a status code the spec does not allow for the command is ERR_UNKNOWN too', () => {
    expect(parseOperatorReply({ balance: 5, statusCode: 'ERR_NOT_ENOUGH_MONEY' }, 'win')).toEqual({
      valid: false,
      statusCode: 'ERR_UNKNOWN',
      balance: null,
      reason: 'status code ERR_NOT_ENOUGH_MONEY is not a valid answer to win',
    });
  });

  it('text that is not JSON is ERR_UNKNOWN, with a bounded preview', () => {
    const parsed = parseOperatorReplyText(`<html>${'x'.repeat(500)}</html>`, 'win');
    expect(parsed).toMatchObject({ valid: false, statusCode: 'ERR_UNKNOWN' });
    expect(!parsed.valid && parsed.reason.length).toBeLessThan(150);
    expect(parseOperatorReplyText('{"balance":3,"statusCode":"OK"}', 'win')).toEqual({
      valid: true,
      statusCode: 'OK',
      balance: 3,
    });
  });
});

describe('status codes per command as data (spec §7 table, decisions.md D9)', () => {
  it('bet and betwin allow all five codes, win everything but ERR_NOT_ENOUGH_MONEY', () => {
    expect(CallbackStatusCodesByCommand.bet).toHaveLength(5);
    expect(CallbackStatusCodesByCommand.betwin).toHaveLength(5);
    expect(isStatusCodeAllowed('win', 'ERR_NOT_ENOUGH_MONEY')).toBe(false);
    expect(isStatusCodeAllowed('win', 'ERR_INTEGRITY_CHECK_FAILED')).toBe(true);
  });

  it('cancel is never short of money: OK, or a failure that is retried', () => {
    expect(CallbackStatusCodesByCommand.cancel).toEqual([
      'OK',
      'ERR_NOT_AUTHENTICATED',
      'ERR_INTEGRITY_CHECK_FAILED',
      'ERR_UNKNOWN',
    ]);
    expect(isStatusCodeAllowed('cancel', 'ERR_NOT_ENOUGH_MONEY')).toBe(false);
  });
});
