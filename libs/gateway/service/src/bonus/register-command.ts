/**
 * From a valid register body to the RegisterBonusCall command (spec §2.1, §4.1; decisions.md D3–D6,
 * D17), with the early answer to a registration the ledger would refuse. The ledger decides the
 * rest (one active bonus per player, platformId uniqueness).
 */
import {
  BonusTypes,
  localDateTimeToInstant,
  type ErrorDetail,
  type OperatorConfig,
  type RegisterBonusCallRequest,
  type registerBonusCallData,
  RefusedError,
} from '@reelstream/contracts';
import {
  currencyRefusal,
  registrationRefusal,
  registrationRequestHash,
  type RegistrationKey,
} from '@reelstream/bonus-application';
import { tryParseAmount } from '@reelstream/money';
import type * as z from 'zod';
import type { CatalogView } from '../catalog/catalog-view.js';

export type RegisterBonusCallData = z.input<typeof registerBonusCallData>;

export interface RegisterContext {
  operator: OperatorConfig;
  catalog: CatalogView;
  now: Date;
}

/**
 * The request as the RegisterBonusCall command, refused here (before publishing) exactly as the
 * ledger would refuse it: the currency, then the amounts and expireAt read as the command carries
 * them (400 AMOUNT_PRECISION, 422 EXPIRE_AT_NOT_IN_ZONE), then `registrationRefusal`, the
 * decider's own rules (bonus type, games, bet level and limits, expiry in the past), with the
 * same code, message and details. The ledger decides what needs the player's account.
 */
export function toRegisterCommandData(
  request: RegisterBonusCallRequest,
  context: RegisterContext,
): RegisterBonusCallData {
  const { operator, catalog } = context;
  // First, as the decider does: the currency says how many decimals the amounts may have.
  const currencyProblem = currencyRefusal(request.currency ?? operator.currency, operator);
  if (currencyProblem) throw RefusedError.from(currencyProblem);
  const data = registerCommandData(request, context);
  const refused = registrationRefusal(data, operator, catalog.lookup, context.now.toISOString());
  if (refused) throw RefusedError.from(refused);
  return data;
}

/**
 * What names the registration before any rule is applied (D17): its platformId, the player, and
 * the hash of the request as the schema normalised it. Nothing here reads the operator's
 * configuration or the clock, so a resend finds its registration whatever changed since.
 */
export function registrationKeyOf(request: RegisterBonusCallRequest, operatorId: string): RegistrationKey {
  return {
    operatorId,
    platformId: request.platformId,
    requestHash: registrationRequestHash(request),
    playerId: request.playerId,
  };
}

/**
 * The command the request stands for, refusing only what cannot be put into it: an amount its
 * currency cannot express, a wall-clock time that does not exist in the operator's zone.
 */
export function registerCommandData(
  request: RegisterBonusCallRequest,
  context: RegisterContext,
): RegisterBonusCallData {
  const { operator } = context;
  const currency = request.currency ?? operator.currency;
  const metaData = 'metaData' in request ? request.metaData : undefined;
  const amounts = convertAmounts(request.callAmount, metaData?.baseBetAmount, currency);
  const expireAt = expiryInstant(request.expireAt, operator.timeZone);
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

/**
 * Amounts are in the bonus call's currency (D6 amended): more decimals than it has is
 * AMOUNT_PRECISION. This only converts; that an amount must be positive is `registrationRefusal`'s
 * rule (bonus-application), which the command meets next, with the ledger's code and details.
 */
function convertAmounts(
  callAmount: number,
  baseBetAmount: number | undefined,
  currency: string,
): { callAmountMinor: number; baseBetAmountMinor?: number } {
  const precision: ErrorDetail[] = [];
  const unreadable: ErrorDetail[] = [];
  const convert = (path: string, value: number): number | undefined => {
    const result = tryParseAmount(value, currency);
    if (result.ok) return result.minor;
    (result.error.code === 'AMOUNT_PRECISION' ? precision : unreadable).push({ path, message: result.error.message });
    return undefined;
  };
  const callAmountMinor = convert('callAmount', callAmount);
  const baseBetAmountMinor = baseBetAmount === undefined ? undefined : convert('metaData.baseBetAmount', baseBetAmount);
  if (precision.length > 0)
    throw new RefusedError(
      'AMOUNT_PRECISION',
      `Amounts are in ${currency}, which has the decimal places of ISO 4217; one has more.`,
      { details: precision },
    );
  if (unreadable.length > 0 || callAmountMinor === undefined) throw RefusedError.validation(unreadable);
  return baseBetAmountMinor === undefined ? { callAmountMinor } : { callAmountMinor, baseBetAmountMinor };
}

/** D5: the operator's wall clock, a time that exists there (whether it is in the future is the decider's rule). */
function expiryInstant(expireAt: string, timeZone: string): Date {
  const result = localDateTimeToInstant(expireAt, timeZone);
  if (!result.ok) {
    if (result.reason === 'nonexistent_local_time')
      throw new RefusedError('EXPIRE_AT_NOT_IN_ZONE', undefined, {
        details: [{ path: 'expireAt', message: result.message }],
      });
    // The schema already checked the format and the zone is checked at start-up: this is a fault.
    throw new Error(`expireAt ${expireAt} in ${timeZone}: ${result.message}`);
  }
  return result.instant;
}
