/**
 * The signature function against values computed outside this code base, with
 *   printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET"
 *   printf '%s' "1777600007.$BODY" | openssl dgst -sha256 -hmac "$SECRET"
 * so a signer that drifts from D8 (another secret, re-serialised JSON, upper case, another
 * separator) fails here whatever the sandbox accepts.
 */
import { describe, expect, it } from '@jest/globals';
import { signCallbackBody } from '../src/index.js';

const BODY =
  '{"command":"bet","transactionId":"244377146876160","playerId":"player_42","roundId":"244377146876161","providerId":1,"gameCode":101,"currency":"EUR","amount":0.2,"isBonusBusy":false,"bonusId":0,"timestamp":1777600000}';
const SECRET = 'known-value-secret-0123456789';
const TIMESTAMP = 1_777_600_007;

describe('signCallbackBody: known values (D8)', () => {
  it('"body": lowercase hex HMAC-SHA256 of the body bytes, as a string or a Buffer', () => {
    const expected = '2262ff586ee64d7705dfe9bf05e65b6f36153101bb5a0a08ee7b644e55763641';
    expect(signCallbackBody(BODY, SECRET)).toBe(expected);
    expect(signCallbackBody(Buffer.from(BODY, 'utf8'), SECRET, 'body', TIMESTAMP)).toBe(expected);
  });

  it('"timestamp.body": the same HMAC over `<timestamp>.<body bytes>`', () => {
    expect(signCallbackBody(Buffer.from(BODY, 'utf8'), SECRET, 'timestamp.body', TIMESTAMP)).toBe(
      '1781bd429148701fcfa66c36a399443b1dd4fbd821004249a57947359812fc15',
    );
    expect(signCallbackBody(BODY, SECRET, 'timestamp.body', TIMESTAMP + 1)).not.toBe(
      '1781bd429148701fcfa66c36a399443b1dd4fbd821004249a57947359812fc15',
    );
  });

  it('the secret given is the one used: the previous secret gives another signature', () => {
    expect(signCallbackBody(BODY, 'previous-secret-0123456789')).toBe(
      'b886cbaf166715a9a5e30212f61feb9caefd15118203a3cede3bdf412b4ade78',
    );
    expect(signCallbackBody(BODY, 'previous-secret-0123456789', 'timestamp.body', TIMESTAMP)).toBe(
      '8403506b15457dca78c9e49d6205aa2edbcb318ab26e707eece52be19c8413d3',
    );
  });

  it('"timestamp.body" without a whole-second timestamp is a programming error, not an unsigned request', () => {
    expect(() => signCallbackBody(BODY, SECRET, 'timestamp.body')).toThrow(RangeError);
    expect(() => signCallbackBody(BODY, SECRET, 'timestamp.body', 1_777_600_007.5)).toThrow(/whole Unix seconds/);
  });
});
