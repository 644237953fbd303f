/**
 * A registration's rules without its streams: what the gateway answers before it appends (ADR
 * 0011), with the same code, message and details as the decider of `Registrations.register`,
 * which applies the same rules to the same facts. What needs the player's account (one active
 * bonus per player) or the platformId guard is decided there only.
 */
import { refuseRegistration, registrationRequestOf, type CatalogFacts } from '@reelstream/bonus-domain';
import type { Refusal, RegisterBonusCallData } from '@reelstream/contracts';
import type { CatalogLookup, OperatorPolicy } from './ports.js';

export { currencyRefusal, registrationRequestHash } from '@reelstream/bonus-domain';

/** The first rule `data` breaks for `operator` at `now` (an ISO-8601 instant), or undefined. */
export function registrationRefusal(
  data: RegisterBonusCallData,
  operator: OperatorPolicy,
  catalog: CatalogLookup,
  now: string,
): Refusal | undefined {
  return refuseRegistration(
    registrationRequestOf(data),
    { catalog: catalogFactsOf(catalog, data), features: operator.features, terms: operator },
    now,
  );
}

/** The provider's existence and each known game of `data` with its bet levels in the registration's currency. */
export function catalogFactsOf(catalog: CatalogLookup, data: RegisterBonusCallData): CatalogFacts {
  return {
    providerExists: catalog.hasProvider(data.providerId),
    games: data.gameIds.flatMap((gameId) => catalog.game(gameId, data.currency) ?? []),
  };
}
