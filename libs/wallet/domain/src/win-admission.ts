/**
 * Whether a win may be delivered, decided on its `walletTx` record, in the order the checks must
 * run: a win recorded before (its source was checked then), a win refused before, the event it
 * must come from (`WinSourceCheck`, read by the caller only when this asks for it), another request
 * under its transactionId, an operator this platform does not know. Each verdict names what the
 * dispatcher does; the events are those of the walletTx commands it then executes.
 */
import type { WalletWinRequest } from '@reelstream/contracts';
import { identicalRequest, sameRequest } from './same-request.js';
import { isSettled, type WalletTxState, type WinRefusalReason } from './state.js';
import type { WinSourceCheck } from './win-source.js';

export type WinAdmission =
  /** Deliver it: its record goes on from here. */
  | { readonly verdict: 'deliver' }
  /** Recorded and settled, its operator no longer configured: answered from the record. */
  | { readonly verdict: 'answer_from_record' }
  /** Refused before, identical: refused again as then (logged, answered), nothing recorded. */
  | { readonly verdict: 'refused_again'; readonly reason: WinRefusalReason; readonly detail: string }
  /** Not decidable without the event the win must come from: check it and ask again with the check. */
  | { readonly verdict: 'check_source' }
  /** It does not match its source: refused (`RefuseWin`), never sent. */
  | { readonly verdict: 'refuse'; readonly reason: WinRefusalReason; readonly detail: string }
  /** Its transactionId names another request: dead-lettered beside it (`DeadLetterWin` with the request). */
  | { readonly verdict: 'dead_letter_stray'; readonly detail: string }
  /** Its operator is not configured: dead-lettered on its own record, recorded first when it is new. */
  | { readonly verdict: 'dead_letter_own'; readonly record: boolean; readonly detail: string };

export function winAdmission(
  state: WalletTxState,
  win: WalletWinRequest,
  facts: { readonly operatorConfigured: boolean; readonly source?: WinSourceCheck },
): WinAdmission {
  const notConfigured = `operator ${win.operatorId} is not configured on this dispatcher`;
  const recorded = state.request;
  if (recorded && sameRequest(recorded, win)) {
    if (facts.operatorConfigured) return { verdict: 'deliver' };
    return isSettled(state)
      ? { verdict: 'answer_from_record' }
      : { verdict: 'dead_letter_own', record: false, detail: notConfigured };
  }
  const earlier = state.refused.find((refusal) => identicalRequest(refusal.request, win));
  if (earlier) return { verdict: 'refused_again', reason: earlier.reason, detail: earlier.detail };
  const { source } = facts;
  if (!source) return { verdict: 'check_source' };
  if (!source.ok) return { verdict: 'refuse', reason: source.reason, detail: source.detail };
  if (recorded)
    return {
      verdict: 'dead_letter_stray',
      detail: `transactionId ${win.transactionId} is already a ${recorded.command} of player ${recorded.playerId} (operator ${recorded.operatorId}) with other fields; this win is not sent under it`,
    };
  if (!facts.operatorConfigured) return { verdict: 'dead_letter_own', record: true, detail: notConfigured };
  return { verdict: 'deliver' };
}
