/**
 * Whether two wallet requests are the same transaction: equal field by field, whatever the key
 * order (a request read back from the store need not keep the order it was written in). A win's
 * `source` says where it was published from, not what it pays: a win recorded before wins named
 * their source is the same transaction as its republication with one.
 */
import { canonicalJson, type WalletRequest } from '@reelstream/contracts';

function withoutSource(request: WalletRequest): WalletRequest {
  if (request.command !== 'win' || request.source === undefined) return request;
  const { source: _source, ...rest } = request;
  return rest;
}

export function sameRequest(a: WalletRequest, b: WalletRequest): boolean {
  return canonicalJson(withoutSource(a)) === canonicalJson(withoutSource(b));
}

/**
 * Equal including the source: how a refused win is recognised when it comes again. A genuine win
 * with a valid source is never taken for an earlier forgery of the same fields.
 */
export function identicalRequest(a: WalletRequest, b: WalletRequest): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
