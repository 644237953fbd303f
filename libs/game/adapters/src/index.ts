/** @reelstream/game-adapters: the game context's I/O — the catalog file. */
export { loadCatalogFile } from './catalog-file.js';
