import { describe, expect, it } from '@jest/globals';
import { ApiError } from '@reelstream/platform-http';
import { openCursor, sealCursor, type CursorOwner } from './page-cursor.js';

const a: CursorOwner = { id: 'casino-a', secret: 'a'.repeat(64) };
const b: CursorOwner = { id: 'casino-b', secret: 'b'.repeat(64) };

/** The code of the error `open` throws, or 'opened' when it opens. */
function refusal(open: () => number): string {
  try {
    open();
    return 'opened';
  } catch (error) {
    return error instanceof ApiError ? error.code : 'other';
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
});
