/**
 * The crash test's traffic: per player, rounds as the game-server sends them — a bet then its
 * win, or a betwin — in bursts published back to back, so per-player order is the bus's job.
 */
import type { WalletRequest } from '@reelstream/contracts';

export interface PlayerPlan {
  playerId: string;
  openingMinor: number;
  bursts: WalletRequest[][];
}

/** A small deterministic PRNG (mulberry32), so a failing run can be replayed by its seed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The multipliers of the instant game (Lucky Wheel, tenths of the bet) its betwins may win: a
 * betwin's win must be one its round's pre-played outcome pays, or the dispatcher refuses it.
 */
const WHEEL_COINS = [0, 5, 12, 15, 20, 30, 50, 100] as const;

function instantStake(betMinor: number, wheelIndex: number): { betMinor: number; winMinor: number } {
  return { betMinor, winMinor: (betMinor / 10) * (WHEEL_COINS[wheelIndex] ?? 0) };
}

export function planTraffic(options: {
  operatorId: string;
  players: number;
  burstsPerPlayer: number;
  seed: number;
  nextId: () => number;
  now: () => string;
}): PlayerPlan[] {
  const rand = random(options.seed);
  const between = (min: number, max: number) => min + Math.floor(rand() * (max - min + 1));
  return Array.from({ length: options.players }, (_, index) => {
    const playerId = `crash_player_${String(index).padStart(3, '0')}`;
    // One player in ten is nearly broke: its bets run into ERR_NOT_ENOUGH_MONEY and are canceled.
    const openingMinor = index % 10 === 0 ? 500 : 10_000;
    const base = {
      operatorId: options.operatorId,
      playerId,
      providerId: 1,
      gameId: 10,
      currency: 'EUR',
      bonusId: 0,
    } as const;
    const bursts = Array.from({ length: options.burstsPerPlayer }, (): WalletRequest[] => {
      if (rand() < 0.6) {
        const roundId = options.nextId();
        return [
          {
            ...base,
            command: 'bet',
            transactionId: options.nextId(),
            roundId,
            requestedAt: options.now(),
            amountMinor: between(1, 8) * 100,
            isBonusBusy: false,
          },
          {
            ...base,
            command: 'win',
            transactionId: options.nextId(),
            roundId,
            requestedAt: options.now(),
            amountMinor: between(0, 15) * 100,
            isRoundFinished: true,
          },
        ];
      }
      return [0, 1].map(() => ({
        ...base,
        command: 'betwin',
        transactionId: options.nextId(),
        roundId: options.nextId(),
        requestedAt: options.now(),
        ...instantStake(between(1, 6) * 100, between(0, WHEEL_COINS.length - 1)),
      }));
    });
    return { playerId, openingMinor, bursts };
  });
}
