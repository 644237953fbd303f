/**
 * @reelstream/game-service: the launch host — the game page, the player API (D23), paid,
 * free and demo rounds, the round outbox that publishes wins and resolves rounds left open.
 */
export { gameServerEnv, gameServerConfigOf, type GameServerConfig } from './config/game-server-env.js';
// The player API's errors are the shared API error (@reelstream/platform-http); the old name stays for importers.
export { startGameServer, type GameServer } from './start-game-server.js';
