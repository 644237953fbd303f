/**
 * The `nextCursor` of the reconciliation lists: the place in the operator's own list (the read
 * model's per-operator sequence), sealed with AES-256-GCM under a key of that operator, with the
 * operator and the list as associated data. An operator reads nothing from it (not even its own
 * count) and learns nothing of the platform's volume; a cursor that was altered, made up, given to
 * another operator or by another list does not open: 400 CURSOR_INVALID.
 */
import { RefusedError } from '@reelstream/contracts';
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { ReconciliationList } from '@reelstream/wallet-application';

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const SEQ_BYTES = 8;

/** Who the cursor is for: the operator's id, and the secret its key derives from. */
export interface CursorOwner {
  readonly id: string;
  /** `CURSOR_SECRET` when the gateway has one, else the operator's API token digest. */
  readonly secret: string;
}

function keyOf(owner: CursorOwner): Buffer {
  return createHmac('sha256', owner.secret).update(`reelstream page cursor v${VERSION}\0${owner.id}`).digest();
}

const associatedData = (owner: CursorOwner, list: ReconciliationList) =>
  Buffer.from(`${VERSION}\0${owner.id}\0${list}`, 'utf8');

export function sealCursor(owner: CursorOwner, list: ReconciliationList, seq: number): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keyOf(owner), iv);
  cipher.setAAD(associatedData(owner, list));
  const plain = Buffer.alloc(SEQ_BYTES);
  plain.writeBigUInt64BE(BigInt(seq));
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, sealed, cipher.getAuthTag()]).toString('base64url');
}

/** The sequence a cursor of this operator and list names, or 400 CURSOR_INVALID. */
export function openCursor(owner: CursorOwner, list: ReconciliationList, cursor: string): number {
  const token = Buffer.from(cursor, 'base64url');
  const invalid = () =>
    new RefusedError(
      'CURSOR_INVALID',
      'cursor must be the nextCursor of a previous page of this list, given to this operator; start again without a cursor.',
      { details: [{ path: 'cursor', message: 'not a nextCursor of this list for this operator' }] },
    );
  if (token[0] !== VERSION || token.toString('base64url') !== cursor) throw invalid();
  const iv = token.subarray(1, 1 + IV_BYTES);
  const sealed = token.subarray(1 + IV_BYTES, 1 + IV_BYTES + SEQ_BYTES);
  // The rest of the token: the decipher takes a tag of TAG_BYTES only, so a token of any other length does not open.
  const tag = token.subarray(1 + IV_BYTES + SEQ_BYTES);
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(owner), iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(associatedData(owner, list));
    decipher.setAuthTag(tag);
    const plain = Buffer.concat([decipher.update(sealed), decipher.final()]);
    const seq = plain.readBigUInt64BE();
    if (seq > BigInt(Number.MAX_SAFE_INTEGER)) throw invalid();
    return Number(seq);
  } catch {
    throw invalid();
  }
}
