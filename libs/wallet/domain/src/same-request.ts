/**
 * Whether two wallet requests are the same transaction: equal field by field, whatever the key
 * order (a request read back from the store need not keep the order it was written in). A win's
 * `source` says where it was published from, not what it pays: a win recorded before wins named
 * their source is the same transaction as its republication with one; likewise a bet recorded
 * before bets carried their deadline.
 */
import { canonicalJson, stakeDeadlineOf, type WalletRequest } from '@reelstream/contracts';

/**
 * The request as compared: a win without its source; a bet or betwin with its deadline, the one it
 * would have had when it came without (requestedAt + 3 s), so a bet recorded before deadlines were
 * carried is the same transaction as the resolver's request rebuilt with one.
 */
function comparable(request: WalletRequest): WalletRequest {
  if (request.command !== 'win')
    return { ...request, deadline: request.deadline ?? stakeDeadlineOf(request.requestedAt) };
  const { source: _source, ...rest } = request;
  return rest;
}

export function sameRequest(a: WalletRequest, b: WalletRequest): boolean {
  return canonicalJson(comparable(a)) === canonicalJson(comparable(b));
}

/**
 * Equal including the source: how a refused win is recognised when it comes again. A genuine win
 * with a valid source is never taken for an earlier forgery of the same fields.
 */
export function identicalRequest(a: WalletRequest, b: WalletRequest): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
