import { describe, expect, it } from '@jest/globals';
import { signedPrefix } from '../src/index.js';

describe('what X-Request-Signature covers (D8)', () => {
  it('is the body alone under the default scheme, whatever the timestamp', () => {
    expect(signedPrefix('body')).toBe('');
    expect(signedPrefix('body', 1_777_600_007)).toBe('');
  });

  it('is the attempt’s timestamp and a dot before the body under timestamp.body', () => {
    expect(signedPrefix('timestamp.body', 1_777_600_007)).toBe('1777600007.');
    // Zero is a whole Unix second too: only a negative one is refused.
    expect(signedPrefix('timestamp.body', 0)).toBe('0.');
  });

  it('refuses timestamp.body without a timestamp in whole Unix seconds', () => {
    expect(() => signedPrefix('timestamp.body')).toThrow(RangeError);
    expect(() => signedPrefix('timestamp.body', 1_777_600_007.5)).toThrow(/whole Unix seconds/);
    expect(() => signedPrefix('timestamp.body', -1)).toThrow(RangeError);
  });
});
