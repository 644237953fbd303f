import { catalogSchema, ReelstreamError, type Catalog } from '@reelstream/contracts';
import { tryParseAmount } from '@reelstream/money';
import { exactBetStepMinor } from '../game-model.js';
import { findModel } from '../models/registry.js';

/** A catalog that cannot be used is a configuration error: fix the file and start again (not retriable). */
export class CatalogError extends ReelstreamError {
  override name = 'CatalogError';
  constructor(readonly problems: readonly string[]) {
    super('CONFIGURATION_INVALID', `invalid game catalog:\n- ${problems.join('\n- ')}`, { retriable: false });
  }
}

/**
 * Parses and checks the catalog the gateway and the game-server both read. Beyond its shape:
 * ids are unique, every game's provider exists, every game is played by a known model of its
 * type whose profiles are tuned to exactly the RTPs the catalog advertises, an instant game
 * offers no free spins (they are slot spins) and cannot deliver a Regular Bonus Call (its spins
 * are not steered), and every bet level converts every possible win
 * to money exactly (see `coinsToMinor`).
 */
export function parseCatalog(json: unknown): Catalog {
  const parsed = catalogSchema.safeParse(json);
  if (!parsed.success) {
    throw new CatalogError(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`));
  }
  const catalog = parsed.data;
  const problems = [
    ...duplicates(
      catalog.providers.map((p) => p.providerId),
      'providerId',
    ),
    ...duplicates(
      catalog.games.map((g) => g.gameId),
      'gameId',
    ),
  ];
  const providerIds = new Set(catalog.providers.map((provider) => provider.providerId));
  for (const game of catalog.games) {
    const where = `game ${game.gameId}`;
    if (!providerIds.has(game.providerId)) problems.push(`${where}: unknown providerId ${game.providerId}`);
    if (game.type === 'instant' && game.supportsFreeSpins)
      problems.push(`${where}: an instant game cannot support free spins`);
    if (game.type === 'instant' && game.supportsRegularBonusCall)
      problems.push(
        `${where}: an instant game cannot deliver a Regular Bonus Call (its outcome is drawn before the bet)`,
      );
    const model = findModel(game.model);
    if (!model) {
      problems.push(`${where}: unknown model ${JSON.stringify(game.model)}`);
      continue;
    }
    if (model.kind !== game.type)
      problems.push(`${where}: model ${model.id} plays ${model.kind} games, not ${game.type}`);
    if (model.profiles.standard.targetRtp !== game.rtp)
      problems.push(`${where}: rtp ${game.rtp} but model ${model.id} is tuned to ${model.profiles.standard.targetRtp}`);
    if (model.profiles.streamer.targetRtp !== game.streamerRtp) {
      problems.push(
        `${where}: streamerRtp ${game.streamerRtp} but model ${model.id} is tuned to ${model.profiles.streamer.targetRtp}`,
      );
    }
    const step = exactBetStepMinor(model);
    for (const [currency, levels] of Object.entries(game.betLevels)) {
      // Default levels are checked at two decimals; a currency with more only multiplies them by 10s.
      const code = currency === 'default' ? 'EUR' : currency;
      for (const level of levels) {
        const minor = tryParseAmount(level, code);
        if (minor.ok && minor.minor % step !== 0) {
          problems.push(
            `${where}: bet level ${level} (${currency}) is not a multiple of ${step} minor units, so some wins would be rounded`,
          );
        }
      }
    }
  }
  if (problems.length > 0) throw new CatalogError(problems);
  return catalog;
}

function duplicates(ids: readonly number[], field: string): string[] {
  const seen = new Set<number>();
  const repeated = new Set<number>();
  for (const id of ids) (seen.has(id) ? repeated : seen).add(id);
  return [...repeated].map((id) => `${field} ${id} appears more than once`);
}
