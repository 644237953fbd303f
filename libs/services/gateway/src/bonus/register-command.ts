/**
 * From a valid register body to the RegisterBonusCall command (spec §2.1, §4.1; DESIGN D3–D6,
 * D17): the rules that need the caller's configuration, the clock or the catalog. The ledger
 * decides the rest (one active bonus per player, platformId uniqueness).
 */
import {
  BonusTypes,
  localDateTimeToInstant,
  type ErrorDetail,
  type OperatorConfig,
  type RegisterBonusCallRequest,
  type registerBonusCallData,
} from '@reelstream/contracts';
import {
  betLevelRefusal,
  currencyRefusal,
  limitRefusal,
  type DomainError,
  type GameBetLevels,
} from '@reelstream/bonus-domain';
import { offeredBetLevelsMinor } from '@reelstream/game-domain';
import { tryParseAmount } from '@reelstream/money';
import type * as z from 'zod';
import type { CatalogView } from '../catalog/catalog-view.js';
import { ApiError } from '@reelstream/http';
import { registrationRequestHash } from './request-hash.js';

export type RegisterBonusCallData = z.input<typeof registerBonusCallData>;

export interface RegisterContext {
  operator: OperatorConfig;
  catalog: CatalogView;
  now: Date;
}

/**
 * Checks in this order, so the answer does not depend on chance: currency, amounts (400), bonus
 * type, provider and games, bet level and limits, expireAt (422). The currency and terms rules
 * are the decider's own functions, so the early answer is the ledger's, code and details.
 */
export function toRegisterCommandData(
  request: RegisterBonusCallRequest,
  context: RegisterContext,
): RegisterBonusCallData {
  const { operator } = context;
  const currency = request.currency ?? operator.currency;
  throwIfRefused(currencyRefusal(currency, operator));
  const metaData = 'metaData' in request ? request.metaData : undefined;
  const amounts = convertAmounts(request.callAmount, metaData?.baseBetAmount, currency);
  checkBonusType(request, operator);
  checkGames(request, context.catalog);
  checkTerms(request, amounts, currency, context);
  const expireAt = expiryInstant(request.expireAt, operator.timeZone, context.now);
  const data: RegisterBonusCallData = {
    operatorId: operator.id,
    platformId: request.platformId,
    requestHash: registrationRequestHash(request),
    playerId: request.playerId,
    providerId: request.providerId,
    gameIds: [...request.gameIds],
    bonusType: request.bonusType,
    currency,
    callAmountMinor: amounts.callAmountMinor,
    expireAt: expireAt.toISOString(),
  };
  if (request.bonusType === BonusTypes.freeSpin && metaData !== undefined && amounts.baseBetAmountMinor !== undefined) {
    data.spinAmount = metaData.spinAmount;
    data.baseBetAmountMinor = amounts.baseBetAmountMinor;
  }
  return data;
}

/** Amounts are in the bonus call's currency (D6 amended): more decimals than it has is AMOUNT_PRECISION. */
function convertAmounts(
  callAmount: number,
  baseBetAmount: number | undefined,
  currency: string,
): { callAmountMinor: number; baseBetAmountMinor?: number } {
  const problems: ErrorDetail[] = [];
  const tooLarge: ErrorDetail[] = [];
  const convert = (path: string, value: number): number | undefined => {
    const result = tryParseAmount(value, currency);
    if (result.ok && result.minor > 0) return result.minor;
    if (!result.ok && result.error.code === 'AMOUNT_PRECISION') problems.push({ path, message: result.error.message });
    else tooLarge.push({ path, message: result.ok ? `${path} must be positive` : result.error.message });
    return undefined;
  };
  const callAmountMinor = convert('callAmount', callAmount);
  const baseBetAmountMinor = baseBetAmount === undefined ? undefined : convert('metaData.baseBetAmount', baseBetAmount);
  if (problems.length > 0)
    throw new ApiError(
      'AMOUNT_PRECISION',
      `Amounts are in ${currency}, which has the decimal places of ISO 4217; one has more.`,
      problems,
    );
  if (tooLarge.length > 0 || callAmountMinor === undefined) throw ApiError.validation(tooLarge);
  return baseBetAmountMinor === undefined ? { callAmountMinor } : { callAmountMinor, baseBetAmountMinor };
}

/** D3: bonusType 2 only for operators with the `regularBonusCall` feature. */
function checkBonusType(request: RegisterBonusCallRequest, operator: OperatorConfig): void {
  if (request.bonusType === BonusTypes.regular && !operator.features.regularBonusCall) {
    throw new ApiError(
      'BONUS_TYPE_UNAVAILABLE',
      'Regular Bonus Call (bonusType 2) is not available for this operator; only Free Spin Bonus (1) can be used.',
      [{ path: 'bonusType', message: 'bonusType 2 is not enabled for this operator' }],
    );
  }
}

/** D4 and spec §4.1 rule 4: every game exists, is of providerId, and supports free spins for bonusType 1. */
function checkGames(request: RegisterBonusCallRequest, catalog: CatalogView): void {
  if (catalog.provider(request.providerId) === undefined) {
    throw new ApiError('PROVIDER_NOT_FOUND', undefined, [
      { path: 'providerId', message: `no provider ${request.providerId}; see GET /v1/providers` },
    ]);
  }
  const unknown: ErrorDetail[] = [];
  const foreign: ErrorDetail[] = [];
  const withoutFreeSpins: ErrorDetail[] = [];
  request.gameIds.forEach((gameId, index) => {
    const path = request.gameIds.length === 1 ? 'gameId' : `gameId[${index}]`;
    const game = catalog.game(gameId);
    if (game === undefined) unknown.push({ path, message: `no game ${gameId}; see GET /v1/games` });
    else if (game.providerId !== request.providerId)
      foreign.push({
        path,
        message: `game ${gameId} belongs to provider ${game.providerId}, not ${request.providerId}`,
      });
    else if (request.bonusType === BonusTypes.freeSpin && !game.supportsFreeSpins)
      withoutFreeSpins.push({ path, message: `game ${gameId} does not support free spins` });
  });
  if (unknown.length > 0) throw new ApiError('GAME_NOT_FOUND', undefined, unknown);
  if (foreign.length > 0)
    throw new ApiError(
      'GAME_NOT_OF_PROVIDER',
      'A Free Spin Bonus is limited to the games of one provider; a game does not belong to providerId.',
      foreign,
    );
  if (withoutFreeSpins.length > 0) throw new ApiError('FREE_SPINS_NOT_SUPPORTED', undefined, withoutFreeSpins);
}

function throwIfRefused(refusal: DomainError | undefined): void {
  if (refusal)
    throw new ApiError(refusal.code, refusal.message, refusal.details === undefined ? undefined : [...refusal.details]);
}

/** Issue 10: the base bet is a level of every game in the bonus's currency, and both amounts are within the operator's limits for it. */
function checkTerms(
  request: RegisterBonusCallRequest,
  amounts: { callAmountMinor: number; baseBetAmountMinor?: number },
  currency: string,
  context: RegisterContext,
): void {
  const games: GameBetLevels[] = request.gameIds.flatMap((gameId) => {
    const game = context.catalog.game(gameId);
    return game === undefined ? [] : [{ gameId, betLevelsMinor: offeredBetLevelsMinor(game, currency) }];
  });
  const baseBetAmountMinor = request.bonusType === BonusTypes.freeSpin ? (amounts.baseBetAmountMinor ?? null) : null;
  if (baseBetAmountMinor !== null) throwIfRefused(betLevelRefusal(baseBetAmountMinor, currency, games));
  throwIfRefused(
    limitRefusal({ callAmountMinor: amounts.callAmountMinor, baseBetAmountMinor, currency }, context.operator, games),
  );
}

/** D5: the operator's wall clock, a time that exists there, strictly in the future. */
function expiryInstant(expireAt: string, timeZone: string, now: Date): Date {
  const result = localDateTimeToInstant(expireAt, timeZone);
  if (!result.ok) {
    if (result.reason === 'nonexistent_local_time')
      throw new ApiError('EXPIRE_AT_NOT_IN_ZONE', undefined, [{ path: 'expireAt', message: result.message }]);
    // The schema already checked the format and the zone is checked at start-up: this is a fault.
    throw new Error(`expireAt ${expireAt} in ${timeZone}: ${result.message}`);
  }
  if (result.instant.getTime() <= now.getTime()) {
    throw new ApiError('EXPIRE_AT_IN_PAST', undefined, [
      {
        path: 'expireAt',
        message: `${expireAt} in ${timeZone} is ${result.instant.toISOString()}, not after now (${now.toISOString()})`,
      },
    ]);
  }
  return result.instant;
}
