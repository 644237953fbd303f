/**
 * RegisterBonusCall (spec §2.1, §4.1; DESIGN D3, D4): one active bonus call per player, a
 * Free Spin Bonus of 1–100 spins on games of one provider that all support free spins, an
 * expiry in the future, bonusType 2 only where the operator has the feature.
 */
import {
  BonusTypes,
  type BonusCallExpired,
  type BonusCallRegistered,
  type PlayerBonusEvent,
} from '@reelstream/contracts';
import type { RegisterBonusCall } from './commands.js';
import { domainError, type DomainError } from './errors.js';
import { expiryOf } from './decide-close.js';
import { betLevelRefusal, currencyRefusal, limitRefusal } from './registration-terms.js';
import { activeBonus, isAtOrAfter, type PlayerBonusAccount } from './state.js';
import { termsOf } from './terms.js';

export const MIN_SPIN_AMOUNT = 1;
export const MAX_SPIN_AMOUNT = 100;

export function decideRegister(
  command: RegisterBonusCall,
  account: PlayerBonusAccount,
): PlayerBonusEvent[] | DomainError {
  const { data, metadata } = command;
  // A resend that already registered this issueId (the platformId guard gave it back): nothing to do.
  if (account.bonuses.has(data.issueId)) return [];

  const refused = refusal(command);
  if (refused) return refused;

  const events: PlayerBonusEvent[] = [];
  const active = activeBonus(account);
  if (active) {
    // Past its expireAt the active bonus call is expired already, even if the expiry timer has
    // not written it yet: record that first, so the player is not blocked by a dead bonus.
    if (!isAtOrAfter(metadata.now, active.expireAt)) {
      return domainError(
        'ACTIVE_BONUS_EXISTS',
        `player ${data.playerId} already has the active bonus call ${active.issueId}; only one may run at a time`,
      );
    }
    const expired: BonusCallExpired = { type: 'BonusCallExpired', data: expiryOf(active, metadata.now) };
    events.push(expired);
  }

  const freeSpin = data.bonusType === BonusTypes.freeSpin;
  const registered: BonusCallRegistered = {
    type: 'BonusCallRegistered',
    data: {
      ...termsOf(data),
      spinAmount: freeSpin ? data.spinAmount : null,
      baseBetAmountMinor: freeSpin ? data.baseBetAmountMinor : null,
      registeredAt: metadata.now,
    },
  };
  events.push(registered);
  return events;
}

/** The first rule the registration breaks, in the order an operator would fix them. */
function refusal(command: RegisterBonusCall): DomainError | undefined {
  const { data, metadata } = command;
  const currencyProblem = currencyRefusal(data.currency, data.terms);
  if (currencyProblem) return currencyProblem;
  if (data.bonusType === BonusTypes.regular && !data.features.regularBonusCall) {
    return domainError('BONUS_TYPE_UNAVAILABLE', 'bonusType 2 (Regular Bonus Call) is not available for this operator');
  }
  if (!Number.isSafeInteger(data.callAmountMinor) || data.callAmountMinor <= 0) {
    return domainError('VALIDATION_FAILED', 'callAmount must be a positive amount');
  }
  if (data.bonusType === BonusTypes.freeSpin) {
    const spins = data.spinAmount;
    if (spins === null || !Number.isInteger(spins) || spins < MIN_SPIN_AMOUNT || spins > MAX_SPIN_AMOUNT) {
      return domainError(
        'VALIDATION_FAILED',
        `metaData.spinAmount must be an integer from ${MIN_SPIN_AMOUNT} to ${MAX_SPIN_AMOUNT}`,
      );
    }
    if (
      data.baseBetAmountMinor === null ||
      !Number.isSafeInteger(data.baseBetAmountMinor) ||
      data.baseBetAmountMinor <= 0
    ) {
      return domainError('VALIDATION_FAILED', 'metaData.baseBetAmount must be a positive amount');
    }
  }
  if (data.gameIds.length === 0 || new Set(data.gameIds).size !== data.gameIds.length) {
    return domainError('VALIDATION_FAILED', 'gameId must name at least one game, each once');
  }
  const catalogProblem = catalogRefusal(command);
  if (catalogProblem) return catalogProblem;
  const termsProblem = termsRefusal(command);
  if (termsProblem) return termsProblem;
  if (isAtOrAfter(metadata.now, data.expireAt)) {
    return domainError('EXPIRE_AT_IN_PAST', `expireAt ${data.expireAt} is not in the future`);
  }
  return undefined;
}

/** Issue 10: the base bet is a level of every game, and both amounts are within the operator's limits, all in the bonus's currency. */
function termsRefusal(command: RegisterBonusCall): DomainError | undefined {
  const { data } = command;
  const games = data.gameIds.flatMap((gameId) => data.catalog.games.find((game) => game.gameId === gameId) ?? []);
  const baseBetAmountMinor = data.bonusType === BonusTypes.freeSpin ? data.baseBetAmountMinor : null;
  if (baseBetAmountMinor !== null) {
    const levelProblem = betLevelRefusal(baseBetAmountMinor, data.currency, games);
    if (levelProblem) return levelProblem;
  }
  return limitRefusal(
    { callAmountMinor: data.callAmountMinor, baseBetAmountMinor, currency: data.currency },
    data.terms,
    games,
  );
}

/** D4: every game exists, belongs to providerId, and (for free spins) supports them. */
function catalogRefusal(command: RegisterBonusCall): DomainError | undefined {
  const { data } = command;
  if (!data.catalog.providerExists)
    return domainError('PROVIDER_NOT_FOUND', `provider ${data.providerId} does not exist`);
  const facts = new Map(data.catalog.games.map((game) => [game.gameId, game]));
  for (const gameId of data.gameIds) {
    const game = facts.get(gameId);
    if (!game) return domainError('GAME_NOT_FOUND', `game ${gameId} does not exist`);
    if (game.providerId !== data.providerId) {
      return domainError(
        'GAME_NOT_OF_PROVIDER',
        `game ${gameId} belongs to provider ${game.providerId}, not ${data.providerId}; a bonus call covers the games of one provider`,
      );
    }
    if (data.bonusType === BonusTypes.freeSpin && !game.supportsFreeSpins) {
      return domainError('FREE_SPINS_NOT_SUPPORTED', `game ${gameId} does not support free spins`);
    }
  }
  return undefined;
}
