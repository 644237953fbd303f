/**
 * @reelstream/service-game-server: the launch host — the game page, the player API (D23), paid,
 * free and demo rounds, the round outbox that publishes wins and resolves rounds left open.
 */
export {
  gameServerEnv,
  parseGameServerEnv,
  gameServerConfigOf,
  DEFAULT_WALLET_TIMEOUT_MS,
  DEFAULT_LEDGER_TIMEOUT_MS,
  BET_CALLBACK_LIMIT_MS,
  type GameServerEnv,
  type GameServerConfig,
} from './config/game-server-env.js';
export { layoutOf } from './catalog/game-table.js';
export { PUBLIC_DIR } from './http/routes.js';
// The player API's errors are the shared API error (@reelstream/http); the old name stays for importers.
export { ApiError as PlayerApiError } from '@reelstream/http';
export { startGameServer, type GameServer, type GameServerDeps } from './start-game-server.js';
