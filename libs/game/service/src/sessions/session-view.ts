/** `GET /api/sessions/{token}` (D23): the session as the game page draws it. */
import { isRefusal, RefusedError } from '@reelstream/contracts';
import type { PlayerSession } from '@reelstream/contracts';
import {
  activeBonusOf,
  balanceView,
  type BalanceBook,
  type GameTable,
  type PlayerBonusPort,
  type SessionRepository,
} from '@reelstream/game-application';
import { freeSpinBonusFor, profileForSession, regularBonusOf } from '@reelstream/game-domain';
import { formatAmount } from '@reelstream/money';
import { layoutOf } from '../catalog/game-table.js';
import { playerBonusView, playerRegularBonusView } from './bonus-views.js';

export interface SessionViewDeps {
  readonly sessions: SessionRepository;
  readonly table: GameTable;
  readonly bonus: PlayerBonusPort;
  readonly balances: BalanceBook;
}

export async function sessionView(deps: SessionViewDeps, token: string): Promise<PlayerSession> {
  const session = await deps.sessions.playable(token);
  if (isRefusal(session)) throw RefusedError.from(session);
  const found = deps.table.find(session.gameId);
  if (!found) throw new RefusedError('GAME_NOT_FOUND', `Game ${session.gameId} is no longer offered.`);
  const { game, model } = found;
  const money = (minor: number) => formatAmount(minor, session.currency);
  const active = session.demo ? null : await activeBonusOf(deps.bonus, session);
  const freeSpins = freeSpinBonusFor(active, session.gameId);
  const regular = regularBonusOf(active, session.gameId);
  const balance = session.demo
    ? { balance: money(deps.balances.demoBalance(session.token, session.currency)), pendingWin: 0 }
    : balanceView(await deps.balances.shown(session.operatorId, session.playerId, session.currency), session.currency);
  return {
    playerId: session.playerId,
    game: { gameId: game.gameId, providerId: game.providerId, name: game.name, type: game.type },
    layout: layoutOf(model, profileForSession(session.isStreamer)),
    currency: session.currency,
    language: session.language,
    returnUrl: session.returnUrl,
    demo: session.demo,
    ...balance,
    betLevels: deps.table.betLevelsMinor(game, session.currency).map(money),
    activeBonus: freeSpins
      ? playerBonusView(freeSpins, session)
      : regular
        ? playerRegularBonusView(regular, session, model.kind === 'slot')
        : null,
    expiresAt: session.expiresAt,
  };
}
