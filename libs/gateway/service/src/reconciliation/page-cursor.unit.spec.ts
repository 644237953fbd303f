import { RefusedError } from '@reelstream/contracts';
import { createCipheriv, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { openCursor, sealCursor, type CursorOwner } from './page-cursor.js';

const a: CursorOwner = { id: 'casino-a', secret: 'a'.repeat(64) };
const b: CursorOwner = { id: 'casino-b', secret: 'b'.repeat(64) };

/**
 * A cursor built as the format is written down, not by `sealCursor`: version 1, a 12-byte IV, the
 * sealed 8-byte place and the GCM tag, under the key HMAC-SHA256(secret, "reelstream page cursor
 * v1\0" + operator id) with "1\0" + operator id + "\0" + list as associated data. Every gateway
 * replica, and the next version, must open what another sealed.
 */
function sealAsWritten(owner: CursorOwner, list: string, place: bigint, tagBytes = 16): string {
  const key = createHmac('sha256', owner.secret).update(`reelstream page cursor v1\0${owner.id}`).digest();
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: tagBytes });
  cipher.setAAD(Buffer.from(`1\0${owner.id}\0${list}`, 'utf8'));
  const plain = Buffer.alloc(8);
  plain.writeBigUInt64BE(place);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The code of the error `open` throws, or 'opened' when it opens. */
function refusal(open: () => number): string {
  try {
    open();
    return 'opened';
  } catch (error) {
    return error instanceof RefusedError ? error.code : 'other';
  }
}

describe('page cursors: sealed per operator and list', () => {
  it('opens to the place it was sealed with, for the same operator and list', () => {
    for (const seq of [1, 2, 4_096, Number.MAX_SAFE_INTEGER])
      expect(openCursor(a, 'transactions', sealCursor(a, 'transactions', seq))).toBe(seq);
  });

  it('shows nothing of the place: the text carries neither the number nor its bytes, and two seals differ', () => {
    const seq = 123_456_789;
    const first = sealCursor(a, 'transactions', seq);
    const second = sealCursor(a, 'transactions', seq);
    expect(first).not.toBe(second);
    expect(first).toMatch(/^[A-Za-z0-9_-]{50}$/);
    const bytes = Buffer.from(first, 'base64url');
    const plain = Buffer.alloc(8);
    plain.writeBigUInt64BE(BigInt(seq));
    expect(bytes.includes(plain)).toBe(false);
    expect(bytes.toString('latin1')).not.toContain(String(seq));
    expect(first).not.toContain(Buffer.from(String(seq)).toString('base64url'));
  });

  it('refuses the cursor of another operator, of another list, or under another secret: 400 CURSOR_INVALID', () => {
    const cursor = sealCursor(a, 'deadLetters', 7);
    expect(refusal(() => openCursor(b, 'deadLetters', cursor))).toBe('CURSOR_INVALID');
    expect(refusal(() => openCursor({ ...b, secret: a.secret }, 'deadLetters', cursor))).toBe('CURSOR_INVALID');
    expect(refusal(() => openCursor(a, 'webhookLetters', cursor))).toBe('CURSOR_INVALID');
    expect(refusal(() => openCursor(a, 'transactions', cursor))).toBe('CURSOR_INVALID');
    expect(refusal(() => openCursor({ ...a, secret: 'c'.repeat(64) }, 'deadLetters', cursor))).toBe('CURSOR_INVALID');
  });

  it('refuses a cursor with any one bit changed, cut short, made longer, or re-encoded', () => {
    const cursor = sealCursor(a, 'transactions', 42);
    const bytes = Buffer.from(cursor, 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      for (const bit of [0x01, 0x80]) {
        const tampered = Buffer.from(bytes);
        tampered[i] = (tampered[i] as number) ^ bit;
        expect(refusal(() => openCursor(a, 'transactions', tampered.toString('base64url')))).toBe('CURSOR_INVALID');
      }
    }
    expect(refusal(() => openCursor(a, 'transactions', cursor.slice(0, -2)))).toBe('CURSOR_INVALID');
    expect(refusal(() => openCursor(a, 'transactions', `${cursor}AA`))).toBe('CURSOR_INVALID');
    expect(refusal(() => openCursor(a, 'transactions', Buffer.from('12345').toString('base64url')))).toBe(
      'CURSOR_INVALID',
    );
    expect(refusal(() => openCursor(a, 'transactions', ''))).toBe('CURSOR_INVALID');
  });

  it("opens a cursor sealed as the format is written down, under the key of the secret and the operator's id", () => {
    expect(openCursor(a, 'transactions', sealAsWritten(a, 'transactions', 42n))).toBe(42);
    expect(openCursor(b, 'webhookLetters', sealAsWritten(b, 'webhookLetters', 7n))).toBe(7);
  });

  it('refuses the same bytes written another way: padded, with other unused bits, or in the standard base64 alphabet', () => {
    let cursor = sealCursor(a, 'transactions', 42);
    // One with a '-' or '_' in it, so that it has a standard-alphabet spelling.
    while (!/[-_]/.test(cursor)) cursor = sealCursor(a, 'transactions', 42);
    const token = Buffer.from(cursor, 'base64url');
    // 37 bytes in 50 characters: the last character carries 4 unused bits.
    const last = cursor.at(-1) as string;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const otherBits = `${cursor.slice(0, -1)}${alphabet[alphabet.indexOf(last) ^ 0x01]}`;
    const spellings = [`${cursor}==`, otherBits, cursor.replaceAll('-', '+').replaceAll('_', '/')];
    for (const spelling of spellings) {
      expect(Buffer.from(spelling, 'base64url').equals(token)).toBe(true);
      expect(refusal(() => openCursor(a, 'transactions', spelling))).toBe('CURSOR_INVALID');
    }
    expect(openCursor(a, 'transactions', cursor)).toBe(42);
  });

  it('refuses a tag shorter than 16 bytes, though it is the genuine tag of that length or the start of the full one', () => {
    expect(refusal(() => openCursor(a, 'transactions', sealAsWritten(a, 'transactions', 42n, 12)))).toBe(
      'CURSOR_INVALID',
    );
    const bytes = Buffer.from(sealCursor(a, 'transactions', 42), 'base64url');
    for (const cut of [1, 4])
      expect(refusal(() => openCursor(a, 'transactions', bytes.subarray(0, -cut).toString('base64url')))).toBe(
        'CURSOR_INVALID',
      );
  });

  it('refuses a place beyond the integers a number holds exactly', () => {
    expect(openCursor(a, 'transactions', sealAsWritten(a, 'transactions', BigInt(Number.MAX_SAFE_INTEGER)))).toBe(
      Number.MAX_SAFE_INTEGER,
    );
    for (const place of [BigInt(Number.MAX_SAFE_INTEGER) + 1n, 2n ** 64n - 1n])
      expect(refusal(() => openCursor(a, 'transactions', sealAsWritten(a, 'transactions', place)))).toBe(
        'CURSOR_INVALID',
      );
  });
});
