/**
 * Reading the game catalog (config/catalog.json): its providers and games and a game's bet levels
 * in a currency. Every context reads the catalog this way (the gateway's catalog view, the bonus
 * registrations' lookup, the analysts' reports); checking it against the math models that play its
 * games is the game domain's `parseCatalog`.
 */
import { currencyExponent, tryParseAmount, type AmountError } from '@reelstream/money';
import { ReelstreamError } from '@reelstream/errors';
import type { Catalog, CatalogGame, CatalogProvider } from './catalog-schema.js';

export function findGame(catalog: Catalog, gameId: number): CatalogGame | undefined {
  return catalog.games.find((game) => game.gameId === gameId);
}

export function findProvider(catalog: Catalog, providerId: number): CatalogProvider | undefined {
  return catalog.providers.find((provider) => provider.providerId === providerId);
}

export function gamesOfProvider(catalog: Catalog, providerId: number): CatalogGame[] {
  return catalog.games.filter((game) => game.providerId === providerId);
}

export class BetLevelError extends ReelstreamError {
  override readonly name = 'BetLevelError';
  constructor(
    readonly gameId: number,
    readonly currency: string,
    readonly level: number,
    cause: AmountError,
  ) {
    super(
      'CONFIGURATION_INVALID',
      `bet level ${level} of game ${gameId} cannot be expressed in ${currency} (${currencyExponent(currency)} decimals): ${cause.message}`,
      { retriable: false, cause },
    );
  }
}

/**
 * The game's bet levels in the currency's minor units: the currency's own list when the
 * catalog has one (KRW, JPY), the default list otherwise. A level the currency cannot express
 * (0.2 in KRW, which has no decimals) is a `BetLevelError`, never rounded.
 */
export function betLevelsMinor(game: CatalogGame, currency: string): number[] {
  return levelsOf(game, currency).map((level) => {
    const result = tryParseAmount(level, currency);
    if (!result.ok) throw new BetLevelError(game.gameId, currency, level, result.error);
    return result.minor;
  });
}

/** The game's bet levels for `currency`, in currency units: its own list, else the default one. */
function levelsOf(game: CatalogGame, currency: string): readonly number[] {
  return game.betLevels[currency] ?? game.betLevels['default'] ?? [];
}

/**
 * The bet levels the game offers in `currency`, in minor units: its own list or the default,
 * minus the levels the currency cannot express (as API v1 lists them and paid spins accept
 * them). A registration's base bet must be one of them: never rounded to one.
 */
export function offeredBetLevelsMinor(game: CatalogGame, currency: string): number[] {
  return levelsOf(game, currency).flatMap((level) => {
    const minor = tryParseAmount(level, currency);
    return minor.ok && minor.minor > 0 ? [minor.minor] : [];
  });
}
