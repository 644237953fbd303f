/**
 * D11: which recorded transaction a re-drive (`npm run wallet:redrive`) may send again. Only a win,
 * only for the operator and player the re-drive names, and not when the dead letter is a
 * conflicting request that named this transactionId: re-sending would send the recorded
 * request, not the one that was dead-lettered. The answer is the reason the CLI prints, or none.
 */
import type { WalletRedriveRequest } from '@reelstream/contracts';
import type { WalletTxState } from './state.js';

export function redriveRefusalOf(
  state: WalletTxState,
  target: Pick<WalletRedriveRequest, 'transactionId' | 'operatorId' | 'playerId'>,
): string | undefined {
  const { transactionId, operatorId, playerId } = target;
  const recorded = state.request;
  const conflict = state.conflicts.find(
    (letter) => letter.request.operatorId === operatorId && letter.request.playerId === playerId,
  );
  if (conflict && state.status !== 'dead_lettered')
    return `the dead-lettered win ${transactionId} (${conflict.reason}) cannot be re-driven: its transactionId names another recorded request`;
  if (!recorded || recorded.operatorId !== operatorId || recorded.playerId !== playerId)
    return `no transaction ${transactionId} of player ${playerId} (operator ${operatorId}) is recorded`;
  if (recorded.command !== 'win')
    return `transaction ${transactionId} is a ${recorded.command}: only wins are re-driven (D11)`;
  return undefined;
}
