/**
 * RegisterBonusCall (spec §2.1, §4.1; decisions.md D3, D4): the rules of the request itself are
 * `refuseRegistration` (shared with the gateway's early answer); the rule that needs the player's
 * account — one active bonus call per player — is decided here.
 */
import {
  BonusTypes,
  refusal,
  type BonusCallExpired,
  type BonusCallRegistered,
  type PlayerBonusEvent,
  type Refusal,
} from '@reelstream/contracts';
import type { RegisterBonusCall } from './commands.js';
import { expiryOf } from './decide-close.js';
import { refuseRegistration } from './refuse-registration.js';
import { activeBonus, isAtOrAfter, type PlayerBonusAccount } from './state.js';
import { termsOf } from './terms.js';

export function decideRegister(command: RegisterBonusCall, account: PlayerBonusAccount): PlayerBonusEvent[] | Refusal {
  const { data, metadata } = command;
  // A resend that already registered this issueId (the platformId guard gave it back): nothing to do.
  if (account.bonuses.has(data.issueId)) return [];

  const refused = refuseRegistration(data, data, metadata.now);
  if (refused) return refused;

  const events: PlayerBonusEvent[] = [];
  const active = activeBonus(account);
  if (active) {
    // Past its expireAt the active bonus call is expired already, even if the expiry timer has
    // not written it yet: record that first, so the player is not blocked by a dead bonus.
    if (!isAtOrAfter(metadata.now, active.expireAt)) {
      return refusal(
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
