// Regular Bonus Call bench (docs/adr/0012-regular-bonus-call-outcomes.md): plays N simulated
// bonuses over the catalog's games, at several callAmount / bet ratios and every bet level, with
// the outcome selection the game-server uses, and prints the spins to completion against the
// bound, the share completed with a top-up and the check that every total equals its target.
// Exits non-zero when a total misses its target or a bonus needs more spins than the bound.
// Usage: npm run bench:regular-bonus [-- --bonuses N] [--seed S]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { betLevelsMinor } from '@reelstream/contracts';
import {
  findModel,
  parseCatalog,
  REGULAR_BONUS_MAX_SPINS,
  SeededRng,
  simulateRegularBonus,
  verifyRound,
} from '@reelstream/game-domain';

const RATIOS = [2, 5, 10, 25, 50, 100];

const { values } = parseArgs({
  options: {
    bonuses: { type: 'string', default: '10000' },
    seed: { type: 'string', default: 'regular-bonus-bench' },
  },
});
const bonuses = Number(values.bonuses);
if (!Number.isSafeInteger(bonuses) || bonuses < 1)
  throw new Error(`--bonuses must be a positive integer, got ${values.bonuses}`);

const catalog = parseCatalog(JSON.parse(readFileSync(new URL('../config/catalog.json', import.meta.url), 'utf8')));
const games = catalog.games.map((game) => {
  const model = findModel(game.model);
  if (!model) throw new Error(`game ${game.gameId} plays unknown model ${game.model}`);
  return { game, model, bets: betLevelsMinor(game, 'EUR') };
});

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const rng = new SeededRng(values.seed);
const spinsToCompletion: number[] = [];
const byGame = new Map<string, { spins: number[]; toppedUp: number }>();
let toppedUp = 0;
let topUpTotal = 0;
let deliveredTotal = 0;
let candidates = 0;
const failures: string[] = [];
const started = performance.now();

for (let i = 0; i < bonuses; i++) {
  const { game, model, bets } = games[i % games.length] as (typeof games)[number];
  const betMinor = bets[Math.floor(i / games.length) % bets.length] as number;
  const ratio = RATIOS[Math.floor(i / (games.length * bets.length)) % RATIOS.length] as number;
  // One bonus in four has odd cents on top of whole bets: a target the reels may have no exact win for.
  const callAmountMinor = ratio * betMinor + (i % 4 === 3 ? 1 + (i % 7) : 0);
  const profile = i % 10 === 0 ? 'streamer' : 'standard';
  const played = simulateRegularBonus({ model, profile, betMinor, callAmountMinor, rng });
  const name = `${game.gameId} ${model.id}`;
  const entry = byGame.get(name) ?? { spins: [], toppedUp: 0 };
  byGame.set(name, entry);
  entry.spins.push(played.spins.length);
  spinsToCompletion.push(played.spins.length);
  if (played.topUpMinor > 0) {
    toppedUp++;
    entry.toppedUp++;
  }
  topUpTotal += played.topUpMinor;
  deliveredTotal += played.deliveredMinor;
  for (const spin of played.spins) candidates += spin.candidatesDrawn;
  if (played.deliveredMinor !== callAmountMinor)
    failures.push(`bonus ${i} (${name}, bet ${betMinor}): delivered ${played.deliveredMinor} of ${callAmountMinor}`);
  if (played.spins.length > REGULAR_BONUS_MAX_SPINS || played.spins.at(-1)?.completes !== true)
    failures.push(`bonus ${i} (${name}): not completed within ${REGULAR_BONUS_MAX_SPINS} spins`);
  // Every result shown is a real one: a sample is replayed from its draws (all of them would double the run).
  if (i % 50 === 0)
    for (const spin of played.spins)
      if (!verifyRound(spin.outcome).ok) failures.push(`bonus ${i} (${name}): a spin does not replay`);
}
const seconds = (performance.now() - started) / 1000;
const totalSpins = spinsToCompletion.reduce((a, b) => a + b, 0);

const line = (label: string, spins: number[], topped: number) => {
  const sorted = [...spins].sort((a, b) => a - b);
  return `${label.padEnd(22)} ${String(spins.length).padStart(6)}  min ${percentile(sorted, 0)}  p50 ${percentile(sorted, 50)}  p90 ${percentile(sorted, 90)}  p99 ${percentile(sorted, 99)}  max ${sorted.at(-1)}  (bound ${REGULAR_BONUS_MAX_SPINS})  top-up ${((100 * topped) / spins.length).toFixed(1)} %`;
};
console.log(`Regular Bonus Call: ${bonuses} bonuses, callAmount/bet ratios ${RATIOS.join(', ')}, every EUR bet level`);
for (const [name, entry] of byGame) console.log(line(name, entry.spins, entry.toppedUp));
console.log(line('all games', spinsToCompletion, toppedUp));
console.log(
  `top-ups: ${toppedUp} bonuses, ${((100 * topUpTotal) / deliveredTotal).toFixed(3)} % of the money delivered; ` +
    `${(candidates / totalSpins).toFixed(0)} candidate rounds drawn per spin; ${seconds.toFixed(1)} s ` +
    `(${((1000 * seconds) / totalSpins).toFixed(2)} ms of selection per steered spin, ${(totalSpins / bonuses).toFixed(2)} spins per bonus)`,
);
if (failures.length > 0) {
  console.error(`FAILED: ${failures.length} bonuses broke the rule\n${failures.slice(0, 20).join('\n')}`);
  process.exit(1);
}
console.log(
  `every total equals its target (${bonuses} of ${bonuses}); no bonus needed more than ${REGULAR_BONUS_MAX_SPINS} spins`,
);
