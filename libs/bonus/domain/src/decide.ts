/**
 * decide(command, state) → events | error: the bonus rules in one place. Every command type is
 * handled (the `never` check fails the build when one is added without a rule). An empty list
 * means "already done": that is how a retried command becomes harmless.
 */
import type { PlayerBonusEvent, Refusal } from '@reelstream/contracts';
import type { BonusDomainCommand } from './commands.js';
import { decideCancel, decideExpire } from './decide-close.js';
import { decideSettleFreeSpin, decideStartFreeSpin } from './decide-free-spin.js';
import { decideRegister } from './decide-register.js';
import { decideSettleRegularSpin } from './decide-regular-spin.js';
import { evolve } from './evolve.js';
import { initialState, type PlayerBonusAccount } from './state.js';

function decide(command: BonusDomainCommand, account: PlayerBonusAccount): PlayerBonusEvent[] | Refusal {
  switch (command.type) {
    case 'RegisterBonusCall':
      return decideRegister(command, account);
    case 'CancelBonusCall':
      return decideCancel(command, account);
    case 'StartFreeSpin':
      return decideStartFreeSpin(command, account);
    case 'SettleFreeSpin':
      return decideSettleFreeSpin(command, account);
    case 'SettleRegularSpin':
      return decideSettleRegularSpin(command, account);
    case 'ExpireBonusCall':
      return decideExpire(command, account);
    default: {
      const unexpected: never = command;
      throw new Error(`no rule for command ${(unexpected as { type: string }).type}`);
    }
  }
}

/**
 * The decider as one value (emmett style): what the command handler and the tests take. Its
 * shape is `Decider` of @reelstream/platform-eventsourcing, matched structurally (a domain lib imports no platform lib).
 */
export const bonusDecider = { initialState: initialState(), evolve, decide } as const;
