/**
 * What the start-up banner suggests doing first: register a free-spin bonus for a player, launch
 * the game the bonus is for, open the launch URL. Fresh names at every start (the player and the
 * platformId carry the start time), so the printed commands work on a platform that already has
 * data: an earlier demo player's active bonus cannot refuse the new one (409 ACTIVE_BONUS_EXISTS).
 */
import {
  formatLocalDateTime,
  isReturnUrlAllowed,
  wallClockAt,
  betLevelsMinor,
  type Catalog,
  type CatalogGame,
} from '@reelstream/contracts';
import { formatAmount, multiplyMinor } from '@reelstream/money';

const DEMO_SPINS = 10;
/** The win cap, in base bets: generous enough that the spins, not the cap, usually end the bonus. */
const WIN_CAP_IN_BETS = 100;

export interface DemoScript {
  playerId: string;
  platformId: string;
  game: Pick<CatalogGame, 'gameId' | 'providerId' | 'name'>;
  currency: string;
  timeZone: string;
  spins: number;
  /** Currency units. */
  baseBet: number;
  callAmount: number;
  /** `YYYY-MM-DD HH:mm:ss` on the operator's wall clock, a day from the start. */
  expireAt: string;
  registerBody: string;
  launchBody: string;
}

export interface DemoOperator {
  currency: string;
  timeZone: string;
  /** When the operator has any, the launch's returnUrl must be within them (422 RETURN_URL_NOT_ALLOWED otherwise). */
  allowedReturnOrigins?: readonly string[];
}

/**
 * Where the printed launch sends the player back: `preferred` (the API docs) when the operator
 * allows it, else the first of the operator's allowed return origins, so the command works as printed.
 */
function demoReturnUrl(preferred: string, allowedReturnOrigins: readonly string[] = []): string {
  if (isReturnUrlAllowed(preferred, allowedReturnOrigins)) return preferred;
  const [first] = allowedReturnOrigins;
  return first === undefined ? preferred : `${first}/`;
}

export function demoScript(
  catalog: Catalog,
  operator: DemoOperator,
  now: Date,
  preferredReturnUrl: string,
): DemoScript {
  const game =
    catalog.games.find((candidate) => candidate.supportsFreeSpins && candidate.type === 'slot') ??
    catalog.games.find((candidate) => candidate.supportsFreeSpins);
  if (!game) throw new Error('the game catalog has no game with free spins: the demo bonus needs one');
  const baseBetMinor = betLevelsMinor(game, operator.currency)[0];
  if (baseBetMinor === undefined) throw new Error(`game ${game.gameId} has no bet level in ${operator.currency}`);
  const stamp = formatLocalDateTime(wallClockAt(now.getTime(), 'UTC')).replace(/[-: ]/g, '');
  const playerId = `demo_${stamp.slice(0, 8)}_${stamp.slice(8)}`;
  const platformId = `welcome-${stamp.slice(0, 8)}-${stamp.slice(8)}`;
  const baseBet = formatAmount(baseBetMinor, operator.currency);
  const callAmount = formatAmount(multiplyMinor(baseBetMinor, WIN_CAP_IN_BETS), operator.currency);
  const expireAt = formatLocalDateTime(wallClockAt(now.getTime() + 24 * 3_600_000, operator.timeZone));
  const register = {
    platformId,
    providerId: game.providerId,
    gameId: game.gameId,
    playerId,
    bonusType: 1,
    callAmount,
    expireAt,
    metaData: { spinAmount: DEMO_SPINS, baseBetAmount: baseBet },
  };
  const returnUrl = demoReturnUrl(preferredReturnUrl, operator.allowedReturnOrigins);
  const launch = {
    playerId,
    providerId: game.providerId,
    gameId: game.gameId,
    language: 'en',
    returnUrl,
    isStreamer: false,
  };
  return {
    playerId,
    platformId,
    game: { gameId: game.gameId, providerId: game.providerId, name: game.name },
    currency: operator.currency,
    timeZone: operator.timeZone,
    spins: DEMO_SPINS,
    baseBet,
    callAmount,
    expireAt,
    registerBody: JSON.stringify(register),
    launchBody: JSON.stringify(launch),
  };
}
