/**
 * The rule a win passes before it is sent (D11 amended): the bus alone cannot move
 * money. The stored event a win names — a paid round's RoundSettled (with its RoundStarted) or a
 * free spin's FreeSpinSettled (with the bonus call's registration) — must say the same
 * transactionId, operator, player, amount, currency, bonusId, round and game. Reading those
 * events is the application's (`WinSourceChecker`); comparing them is decided here.
 */
import type {
  BonusCallRegistered,
  FreeSpinSettled,
  RoundSettled,
  RoundStarted,
  WalletWinRequest,
} from '@reelstream/contracts';
import type { WinRefusalReason } from './state.js';

export type WinSourceCheck = { ok: true } | { ok: false; reason: WinRefusalReason; detail: string };

export function refusedWin(reason: WinRefusalReason, detail: string): WinSourceCheck {
  return { ok: false, reason, detail };
}

/** A paid round's win against its RoundSettled and the round's RoundStarted. */
export function checkPaidRoundWin(
  win: WalletWinRequest,
  settled: RoundSettled['data'],
  round: RoundStarted['data'],
): WinSourceCheck {
  return compare(win, [
    ['transactionId', settled.winTransactionId, win.transactionId],
    ['roundId', settled.roundId, win.roundId],
    ['amountMinor', settled.winMinor, win.amountMinor],
    ['operatorId', round.operatorId, win.operatorId],
    ['playerId', round.playerId, win.playerId],
    ['currency', round.currency, win.currency],
    ['bonusId', round.bonusId, win.bonusId],
    ['gameId', round.gameId, win.gameId],
    ['providerId', round.providerId, win.providerId],
    ['kind', round.kind, 'paid'],
  ]);
}

/** A free spin's win against its FreeSpinSettled, the player stream's owner and the bonus call's registration. */
export function checkFreeSpinWin(
  win: WalletWinRequest,
  owner: { readonly operatorId: string; readonly playerId: string },
  spin: FreeSpinSettled['data'],
  registration: Pick<BonusCallRegistered['data'], 'currency' | 'providerId'>,
): WinSourceCheck {
  return compare(win, [
    ['transactionId', spin.transactionId, win.transactionId],
    ['operatorId', owner.operatorId, win.operatorId],
    ['playerId', owner.playerId, win.playerId],
    ['roundId', spin.roundId, win.roundId],
    ['amountMinor', spin.winMinor, win.amountMinor],
    ['bonusId', spin.issueId, win.bonusId],
    ['gameId', spin.gameId, win.gameId],
    ['currency', registration.currency, win.currency],
    ['providerId', registration.providerId, win.providerId],
  ]);
}

function compare(win: WalletWinRequest, fields: readonly (readonly [string, unknown, unknown])[]): WinSourceCheck {
  const differ = fields
    .filter(([, expected, actual]) => expected !== actual)
    .map(([name, expected, actual]) => `${name} ${String(actual)} (source: ${String(expected)})`);
  if (differ.length === 0) return { ok: true };
  return refusedWin(
    'source_mismatch',
    `win ${win.transactionId} differs from ${win.source?.stream}@${win.source?.revision}: ${differ.join(', ')}`,
  );
}
