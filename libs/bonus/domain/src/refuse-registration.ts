/**
 * Whether a registration may be granted at all (spec §2.1, §4.1, §8; decisions.md D3, D4, D5),
 * decided once: the gateway calls it for its early answer before publishing, the ledger's decider
 * calls it as the authority, so both refuse with the same code, message and details. What is left
 * to the decider needs the player's account (one active bonus call per player).
 */
import {
  BonusTypes,
  MAX_SPIN_AMOUNT,
  MIN_SPIN_AMOUNT,
  refusal,
  SPIN_AMOUNT_RULE,
  type ErrorDetail,
  type Refusal,
} from '@reelstream/contracts';
import type { CatalogFacts, OperatorFeatures } from './commands.js';
import { betLevelRefusal, currencyRefusal, limitRefusal, type OperatorTerms } from './registration-terms.js';
import { isAtOrAfter } from './state.js';
import type { BonusCallTerms } from './terms.js';

/** The terms asked for, amounts in minor units of `currency` and `expireAt` an instant (the gateway converted them). */
export type RegistrationRequest = Pick<
  BonusCallTerms,
  | 'providerId'
  | 'gameIds'
  | 'bonusType'
  | 'currency'
  | 'callAmountMinor'
  | 'spinAmount'
  | 'baseBetAmountMinor'
  | 'expireAt'
>;

/** The terms of a register command's data as the rules read them: a spin amount or base bet it lacks is null. */
export function registrationRequestOf(
  data: Omit<RegistrationRequest, 'spinAmount' | 'baseBetAmountMinor'> & {
    readonly spinAmount?: number | null | undefined;
    readonly baseBetAmountMinor?: number | null | undefined;
  },
): RegistrationRequest {
  return {
    providerId: data.providerId,
    gameIds: data.gameIds,
    bonusType: data.bonusType,
    currency: data.currency,
    callAmountMinor: data.callAmountMinor,
    spinAmount: data.spinAmount ?? null,
    baseBetAmountMinor: data.baseBetAmountMinor ?? null,
    expireAt: data.expireAt,
  };
}

/** What the registration is judged against: the catalog facts of its games and the operator's configuration. */
export interface RegistrationContext {
  readonly catalog: CatalogFacts;
  readonly features: OperatorFeatures;
  readonly terms: OperatorTerms;
}

/** The first rule the registration breaks, in the order an operator would fix them; `now` an ISO-8601 instant. */
export function refuseRegistration(
  request: RegistrationRequest,
  context: RegistrationContext,
  now: string,
): Refusal | undefined {
  return (
    currencyRefusal(request.currency, context.terms) ??
    bonusTypeRefusal(request, context.features) ??
    shapeRefusal(request) ??
    catalogRefusal(request, context.catalog) ??
    termsRefusal(request, context) ??
    expiryRefusal(request.expireAt, now)
  );
}

/** D3: bonusType 2 only for operators with the `regularBonusCall` feature. */
function bonusTypeRefusal(request: RegistrationRequest, features: OperatorFeatures): Refusal | undefined {
  if (request.bonusType !== BonusTypes.regular || features.regularBonusCall) return undefined;
  return refusal(
    'BONUS_TYPE_UNAVAILABLE',
    'Regular Bonus Call (bonusType 2) is not available for this operator; only Free Spin Bonus (1) can be used.',
    { details: [{ path: 'bonusType', message: 'bonusType 2 is not enabled for this operator' }] },
  );
}

/** What the API schema already refuses; checked again because a bus command need not come through it. */
function shapeRefusal(request: RegistrationRequest): Refusal | undefined {
  const invalid = (path: string, message: string) =>
    refusal('VALIDATION_FAILED', undefined, { details: [{ path, message }] });
  if (!isPositiveMinor(request.callAmountMinor)) return invalid('callAmount', 'callAmount must be a positive amount');
  if (request.bonusType === BonusTypes.freeSpin) {
    const spins = request.spinAmount;
    if (spins === null || !Number.isInteger(spins) || spins < MIN_SPIN_AMOUNT || spins > MAX_SPIN_AMOUNT)
      return invalid('metaData.spinAmount', SPIN_AMOUNT_RULE);
    if (request.baseBetAmountMinor === null || !isPositiveMinor(request.baseBetAmountMinor))
      return invalid('metaData.baseBetAmount', 'metaData.baseBetAmount must be a positive amount');
  }
  if (request.gameIds.length === 0 || new Set(request.gameIds).size !== request.gameIds.length)
    return invalid('gameId', 'gameId must name at least one game, each once');
  return undefined;
}

function isPositiveMinor(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}

/**
 * D4 and spec §4.1 rule 4: every game exists, is of providerId, and can deliver the bonus type —
 * free spins for bonusType 1, steered paid spins for bonusType 2 (the catalog says which); each one named.
 */
function catalogRefusal(request: RegistrationRequest, catalog: CatalogFacts): Refusal | undefined {
  if (!catalog.providerExists) {
    return refusal('PROVIDER_NOT_FOUND', undefined, {
      details: [{ path: 'providerId', message: `no provider ${request.providerId}; see GET /v1/providers` }],
    });
  }
  const facts = new Map(catalog.games.map((game) => [game.gameId, game]));
  const unknown: ErrorDetail[] = [];
  const foreign: ErrorDetail[] = [];
  const withoutFreeSpins: ErrorDetail[] = [];
  const withoutRegular: ErrorDetail[] = [];
  request.gameIds.forEach((gameId, index) => {
    const path = request.gameIds.length === 1 ? 'gameId' : `gameId[${index}]`;
    const game = facts.get(gameId);
    if (game === undefined) unknown.push({ path, message: `no game ${gameId}; see GET /v1/games` });
    else if (game.providerId !== request.providerId)
      foreign.push({
        path,
        message: `game ${gameId} belongs to provider ${game.providerId}, not ${request.providerId}`,
      });
    else if (request.bonusType === BonusTypes.freeSpin && !game.supportsFreeSpins)
      withoutFreeSpins.push({ path, message: `game ${gameId} does not support free spins` });
    else if (request.bonusType === BonusTypes.regular && !game.supportsRegularBonusCall)
      withoutRegular.push({ path, message: `game ${gameId} cannot deliver a Regular Bonus Call; see GET /v1/games` });
  });
  if (unknown.length > 0) return refusal('GAME_NOT_FOUND', undefined, { details: unknown });
  if (foreign.length > 0)
    return refusal(
      'GAME_NOT_OF_PROVIDER',
      'A Free Spin Bonus is limited to the games of one provider; a game does not belong to providerId.',
      { details: foreign },
    );
  if (withoutFreeSpins.length > 0) return refusal('FREE_SPINS_NOT_SUPPORTED', undefined, { details: withoutFreeSpins });
  if (withoutRegular.length > 0) return refusal('REGULAR_BONUS_NOT_SUPPORTED', undefined, { details: withoutRegular });
  return undefined;
}

/** The base bet is a level of every game, and both amounts are within the operator's limits, all in the bonus's currency. */
function termsRefusal(request: RegistrationRequest, context: RegistrationContext): Refusal | undefined {
  const games = request.gameIds.flatMap((gameId) => context.catalog.games.find((game) => game.gameId === gameId) ?? []);
  const baseBetAmountMinor = request.bonusType === BonusTypes.freeSpin ? request.baseBetAmountMinor : null;
  return (
    (baseBetAmountMinor === null ? undefined : betLevelRefusal(baseBetAmountMinor, request.currency, games)) ??
    limitRefusal(
      { callAmountMinor: request.callAmountMinor, baseBetAmountMinor, currency: request.currency },
      context.terms,
      games,
    )
  );
}

/** D5: strictly in the future at the time the registration is judged. */
function expiryRefusal(expireAt: string, now: string): Refusal | undefined {
  if (!isAtOrAfter(now, expireAt)) return undefined;
  return refusal('EXPIRE_AT_IN_PAST', undefined, {
    details: [{ path: 'expireAt', message: `${expireAt} is not after now (${now})` }],
  });
}
