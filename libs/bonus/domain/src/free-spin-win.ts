/**
 * D10: a free spin's wallet traffic is one `win` per round and no bet — amount possibly 0,
 * isRoundFinished true, bonusId the issueId — with the transactionId FreeSpinSettled fixed, in
 * the bonus call's currency and provider. It names the FreeSpinSettled it comes from, which the
 * dispatcher reads to check the win before sending it (D11 amended).
 */
import {
  walletWinRequest,
  type BonusCallRegistered,
  type FreeSpinSettled,
  type WalletWinRequest,
  type WinSource,
} from '@reelstream/contracts';

export type WinRegistration = Pick<BonusCallRegistered['data'], 'providerId' | 'currency'>;

export function freeSpinWinRequest(
  settled: FreeSpinSettled['data'],
  owner: { readonly operatorId: string; readonly playerId: string },
  registration: WinRegistration,
  source: WinSource,
): WalletWinRequest {
  return walletWinRequest.parse({
    command: 'win',
    transactionId: settled.transactionId,
    operatorId: owner.operatorId,
    playerId: owner.playerId,
    roundId: settled.roundId,
    providerId: registration.providerId,
    gameId: settled.gameId,
    currency: registration.currency,
    bonusId: settled.issueId,
    requestedAt: settled.settledAt,
    amountMinor: settled.winMinor,
    isRoundFinished: true,
    source,
  });
}
