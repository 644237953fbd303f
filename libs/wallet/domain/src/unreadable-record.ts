/**
 * A `walletTx` stream that cannot be folded (an event this code cannot read) still takes one kind
 * of event: the dead letter of a win that cannot be handled because of it, once per win. This
 * decider sees only the stream's `WinDeadLettered` events, so it runs where `walletTxDecider` cannot.
 */
import { canonicalJson, type WalletTxEvent } from '@reelstream/contracts';

export type WinDeadLettered = Extract<WalletTxEvent, { type: 'WinDeadLettered' }>;

/** When each win named by a dead letter was dead-lettered, by the win's canonical JSON. */
export type DeadLetteredWins = ReadonlyMap<string, string>;

const keyOf = (event: WinDeadLettered) => canonicalJson(event.data.request ?? null);

export const unreadableRecordDecider = {
  initialState: new Map() as DeadLetteredWins,
  /** The command is the dead letter to record; one already recorded for the same win is not recorded again. */
  decide: (letter: WinDeadLettered, letters: DeadLetteredWins): WinDeadLettered[] =>
    letters.has(keyOf(letter)) ? [] : [letter],
  evolve: (letters: DeadLetteredWins, event: WinDeadLettered): DeadLetteredWins =>
    letters.has(keyOf(event)) ? letters : new Map(letters).set(keyOf(event), event.data.at),
  /** When `win` was dead-lettered, if it was. */
  deadLetteredAt: (letters: DeadLetteredWins, win: unknown): string | undefined => letters.get(canonicalJson(win)),
} as const;
