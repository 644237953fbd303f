import type { SlotSymbol } from '../slot/slot-model.js';

/** The low-paying card symbols Ace, King, Queen and Jack, as the line slots that use them all show them. */
export const CARD_ROYALS: readonly SlotSymbol[] = [
  { code: 'A', name: 'Ace', role: 'regular' },
  { code: 'K', name: 'King', role: 'regular' },
  { code: 'Q', name: 'Queen', role: 'regular' },
  { code: 'J', name: 'Jack', role: 'regular' },
];
