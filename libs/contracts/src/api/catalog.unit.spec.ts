import { describe, expect, it } from '@jest/globals';
import { game, listGamesQueryParams, provider } from './catalog.js';

const slot = {
  gameId: 1001,
  providerId: 7,
  name: 'Lucky Lanterns',
  type: 'slot',
  supportsFreeSpins: true,
  supportsRegularBonusCall: true,
  rtp: 96.1,
  languages: ['en'],
  betLevels: [0.1, 0.2, 1],
};

describe('catalog: providers and games (decisions.md D15)', () => {
  it('accepts a provider and refuses one without a name', () => {
    expect(provider.parse({ providerId: 7, name: 'Reelstream Originals' })).toEqual({
      providerId: 7,
      name: 'Reelstream Originals',
    });
    expect(provider.safeParse({ providerId: 7, name: '' }).success).toBe(false);
  });

  it('accepts a slot and an instant game', () => {
    expect(game.parse(slot)).toEqual(slot);
    expect(
      game.safeParse({ ...slot, type: 'instant', supportsFreeSpins: false, supportsRegularBonusCall: false }).success,
    ).toBe(true);
  });

  it.each([
    ['type', 'table'],
    ['rtp', 0],
    ['rtp', 101],
    ['betLevels', []],
    ['betLevels', [1, 0.5]],
    ['betLevels', [1, 1]],
    ['languages', []],
    ['supportsFreeSpins', 'yes'],
    ['supportsRegularBonusCall', undefined],
  ])('refuses %s = %j', (key, value) => expect(game.safeParse({ ...slot, [key]: value }).success).toBe(false));

  it('GET /v1/games?providerId= takes an optional positive integer', () => {
    expect(listGamesQueryParams.parse({ providerId: '7' })).toEqual({ providerId: 7 });
    expect(listGamesQueryParams.parse({})).toEqual({});
    expect(listGamesQueryParams.safeParse({ providerId: 'seven' }).success).toBe(false);
    expect(listGamesQueryParams.safeParse({ providerId: '0' }).success).toBe(false);
    expect(listGamesQueryParams.safeParse({ provider: '7' }).success).toBe(false);
  });
});
