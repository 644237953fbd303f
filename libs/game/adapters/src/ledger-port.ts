/** The bonus-ledger client (@reelstream/bonus-client) as the game's use cases see it. */
import { BonusLedgerClient, LedgerTimeoutError, type BonusLedgerClientDeps } from '@reelstream/bonus-client';
import type { LedgerPort } from '@reelstream/game-application';

export function bonusLedgerPort(deps: BonusLedgerClientDeps): LedgerPort {
  const client = new BonusLedgerClient(deps);
  return {
    // Both signatures are `Extract<BonusRequestMessage, { type }>['data']` of the contracts; TypeScript
    // cannot relate two generic aliases of it, so the client's method is taken as the port's.
    call: client.call.bind(client) as LedgerPort['call'],
    isTimeout: (error) => error instanceof LedgerTimeoutError,
  };
}
