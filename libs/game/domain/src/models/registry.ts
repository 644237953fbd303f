import type { GameModel } from '../game-model.js';
import { dragonPearl } from './dragon-pearl.js';
import { luckyWheel } from './lucky-wheel.js';
import { lotusGarden } from './lotus-garden.js';
import { neonFruits } from './neon-fruits.js';
import { skyTemple } from './sky-temple.js';
import { thunderVault } from './thunder-vault.js';

/** Every game model the platform can play; the catalog names them by `id`. */
export const gameModels: readonly GameModel[] = [
  lotusGarden,
  dragonPearl,
  thunderVault,
  neonFruits,
  skyTemple,
  luckyWheel,
];

const byId = new Map(gameModels.map((model) => [model.id, model]));

export function findModel(id: string): GameModel | undefined {
  return byId.get(id);
}
