/**
 * The catalog as API v1 shows it (decisions.md D15): providers, and games with their RTP in percent and
 * their bet levels in the caller's currency. Built once per currency and checked against the
 * response schemas, so a catalog the API cannot show fails at start-up, not on a request.
 */
import { catalogLookup, type CatalogLookup } from '@reelstream/bonus-application';
import {
  game as gameSchema,
  provider as providerSchema,
  type Game,
  type Provider,
  type Catalog,
  type CatalogGame,
} from '@reelstream/contracts';
import { formatAmount, tryParseAmount } from '@reelstream/money';

export class CatalogView {
  /** The catalog as registrations read it (the bonus application's lookup), indexed once. */
  readonly lookup: CatalogLookup;
  private readonly providerList: readonly Provider[];
  private readonly providersById: ReadonlyMap<number, Provider>;
  private readonly gamesById: ReadonlyMap<number, CatalogGame>;
  private readonly gamesByCurrency = new Map<string, readonly Game[]>();

  constructor(readonly catalog: Catalog) {
    this.lookup = catalogLookup(catalog);
    this.providerList = catalog.providers.map((provider) =>
      providerSchema.parse({ providerId: provider.providerId, name: provider.name }),
    );
    this.providersById = new Map(this.providerList.map((provider) => [provider.providerId, provider]));
    this.gamesById = new Map(catalog.games.map((game) => [game.gameId, game]));
  }

  providers(): readonly Provider[] {
    return this.providerList;
  }

  provider(providerId: number): Provider | undefined {
    return this.providersById.get(providerId);
  }

  game(gameId: number): CatalogGame | undefined {
    return this.gamesById.get(gameId);
  }

  /** The games offered in `currency` (those with at least one bet level it can express), optionally of one provider. */
  games(currency: string, providerId?: number): readonly Game[] {
    let all = this.gamesByCurrency.get(currency);
    if (all === undefined) {
      all = this.catalog.games.flatMap((game) => {
        const view = apiGame(game, currency);
        return view === undefined ? [] : [view];
      });
      this.gamesByCurrency.set(currency, all);
    }
    return providerId === undefined ? all : all.filter((game) => game.providerId === providerId);
  }
}

/**
 * The game's bet levels in `currency` units: its own list for that currency, else the default
 * list, keeping only the levels the currency can express (0.2 has no meaning in KRW).
 */
export function betLevelsIn(game: CatalogGame, currency: string): number[] {
  const levels = game.betLevels[currency] ?? game.betLevels['default'] ?? [];
  return levels.flatMap((level) => {
    const minor = tryParseAmount(level, currency);
    return minor.ok && minor.minor > 0 ? [formatAmount(minor.minor, currency)] : [];
  });
}

function apiGame(game: CatalogGame, currency: string): Game | undefined {
  const betLevels = betLevelsIn(game, currency);
  if (betLevels.length === 0) return undefined;
  return gameSchema.parse({
    gameId: game.gameId,
    providerId: game.providerId,
    name: game.name,
    type: game.type,
    supportsFreeSpins: game.supportsFreeSpins,
    supportsRegularBonusCall: game.supportsRegularBonusCall,
    // 0.965 → 96.5 without binary noise (0.965 * 100 is 96.49999999999999).
    rtp: Number((game.rtp * 100).toFixed(6)),
    languages: [...game.languages],
    betLevels,
  });
}
