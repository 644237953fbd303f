import type { Rng, SlotModel } from '@reelstream/game-domain';

/**
 * A small 5×3 slot for hand-set spins: each reel strip is a list of 3-symbol columns laid end to
 * end, so stop 3·k shows column k exactly (top row first).
 *
 * Symbols: W wild, S scatter, A, B, C. Lines: 0 middle, 1 top, 2 bottom, 3 V (top-mid-bottom-mid-top).
 */
export function columnsModel(reels: readonly (readonly string[])[], id = 'columns-test'): SlotModel {
  const strips = reels.map((columns) => columns.join(''));
  return {
    kind: 'slot',
    id,
    name: 'Columns test slot',
    rows: 3,
    symbols: [
      { code: 'W', name: 'Wild', role: 'wild' },
      { code: 'S', name: 'Scatter', role: 'scatter' },
      { code: 'A', name: 'Ace', role: 'regular' },
      { code: 'B', name: 'Bell', role: 'regular' },
      { code: 'C', name: 'Cherry', role: 'regular' },
    ],
    paylines: [
      [1, 1, 1, 1, 1],
      [0, 0, 0, 0, 0],
      [2, 2, 2, 2, 2],
      [0, 1, 2, 1, 0],
    ],
    linePays: {
      W: { 3: 10, 4: 50, 5: 500 },
      A: { 3: 5, 4: 20, 5: 100 },
      B: { 3: 3, 4: 10, 5: 50 },
      C: { 2: 1, 3: 2, 4: 4, 5: 10 },
    },
    scatterPays: { 3: 8, 4: 40 },
    bonus: { freeGames: { 3: 2, 5: 4 }, multiplier: 3 },
    coinsPerBet: 4,
    profiles: {
      standard: { targetRtp: 0.9, reels: strips },
      streamer: { targetRtp: 1.1, reels: strips },
    },
  };
}

/** The draw that stops a `columnsModel` reel on column k. */
export const column = (k: number): number => 3 * k;

/**
 * Walks every possible sequence of draws a round can take, depth first, like an odometer: each
 * run replays the path so far and extends it with zeros; afterwards the last digit that can still
 * grow is increased and everything after it dropped. A complete sequence of draws with bounds
 * b1..bn happens with probability Π 1/bi, so Σ win · probability is the exact expected win.
 */
export function exactExpectation(play: (rng: Rng) => number): { expectation: number; sequences: number } {
  const path: { value: number; bound: number }[] = [];
  let position = 0;
  const rng: Rng = {
    nextInt(bound: number): number {
      const step = path[position];
      position++;
      if (step) {
        if (step.bound !== bound) throw new Error('a round asked for a different bound on the same path');
        return step.value;
      }
      path.push({ value: 0, bound });
      return 0;
    },
  };

  let expectation = 0;
  let sequences = 0;
  for (;;) {
    position = 0;
    const win = play(rng);
    if (position !== path.length) throw new Error('a round used fewer draws than its own path');
    expectation += path.reduce((probability, step) => probability / step.bound, win);
    sequences++;
    while (path.length > 0 && (path[path.length - 1]?.value ?? 0) + 1 >= (path[path.length - 1]?.bound ?? 0))
      path.pop();
    const last = path[path.length - 1];
    if (!last) return { expectation, sequences };
    last.value++;
  }
}
