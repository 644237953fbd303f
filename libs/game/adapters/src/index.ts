/**
 * @reelstream/game-adapters: the game context's adapters — node:crypto's RNG, the wallet-dispatcher
 * over the bus, the bonus rules on the player's stream — behind the ports of @reelstream/game-application.
 */
export { cryptoRng } from './crypto-rng.js';
export { WalletClient } from './wallet-client.js';
export { playerBonus } from './player-bonus.js';
export { loadCatalogFile } from './catalog-file.js';
