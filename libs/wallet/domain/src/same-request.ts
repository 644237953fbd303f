/**
 * Whether two wallet requests are the same transaction: equal field by field, whatever the key
 * order (a request read back from the store need not keep the order it was written in).
 */
import { canonicalJson, type WalletRequest } from '@reelstream/contracts';

export function sameRequest(a: WalletRequest, b: WalletRequest): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
