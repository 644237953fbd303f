// RTP benchmark: plays every catalog game and profile through the engine's simulation path,
// single-threaded, and compares the measured return with the catalog target and the exact
// theoretical RTP. Usage: npm run bench:rtp [-- --spins N] [--seed S] [--game gameId]
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import {
  parseCatalog,
  profiles,
  SeededRng,
  simulate,
  theoreticalRtp,
  findModel,
  type GameModel,
  type Profile,
} from '@reelstream/game-domain';

const TOLERANCE = 0.003; // ±0.3 percentage points of RTP

const { values } = parseArgs({
  options: {
    spins: { type: 'string', default: '10000000' },
    seed: { type: 'string', default: 'rtp-bench' },
    game: { type: 'string' },
  },
});
const spins = Number(values.spins);
if (!Number.isSafeInteger(spins) || spins < 1)
  throw new Error(`--spins must be a positive integer, got ${values.spins}`);

const catalog = parseCatalog(JSON.parse(readFileSync(new URL('../config/catalog.json', import.meta.url), 'utf8')));
const games = catalog.games.filter((game) => values.game === undefined || String(game.gameId) === values.game);

/** Draw bounds of one spin (slot: one per reel) or one round (instant: the wheel's total weight). */
function drawBounds(model: GameModel, profile: Profile): Int32Array {
  if (model.kind === 'slot') return Int32Array.from(model.profiles[profile].reels, (strip) => strip.length);
  return Int32Array.of(model.profiles[profile].segments.reduce((total, segment) => total + segment.weight, 0));
}

/**
 * CPU time of this process (user + system) in ms: other processes share the 2 cores, and wall
 * time would charge their work to ours. Single-threaded JS, so this is the time of one core.
 */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** The floor under any engine: the same number of draws with the same bounds, and nothing else. */
function baselineMs(bounds: Int32Array, spinsToDraw: number, seed: string): { ms: number; sink: number } {
  const rng = new SeededRng(seed);
  let sink = 0;
  const started = cpuMs();
  for (let i = 0; i < spinsToDraw; i++)
    for (let r = 0; r < bounds.length; r++) sink += rng.nextInt(bounds[r] as number);
  return { ms: cpuMs() - started, sink };
}

const pct = (x: number, digits = 3) => `${(x * 100).toFixed(digits)}%`;
const columns = [
  ['game', 20],
  ['profile', 9],
  ['spins', 11],
  ['spins/s', 10],
  ['target', 9],
  ['theory', 9],
  ['measured', 9],
  ['diff', 8],
  ['z', 6],
  ['σ/spin', 7],
  ['hit', 7],
  ['bonus', 7],
  ['draws/s', 10],
  ['ratio', 6],
  ['±0.3%', 6],
] as const;
const row = (cells: readonly string[]) =>
  cells.map((cell, i) => (i < 2 ? cell.padEnd(columns[i]?.[1] ?? 0) : cell.padStart(columns[i]?.[1] ?? 0))).join(' ');

console.log(
  `RTP bench: ${spins.toLocaleString('en')} paid rounds per game and profile, seed ${JSON.stringify(values.seed)}, one thread`,
);
console.log(
  `node ${process.version}, ${cpus()[0]?.model ?? 'unknown cpu'} (${cpus().length} cores, other work may share them)`,
);
console.log(
  'spins/s: paid rounds (with their bonus games) per CPU second; draws/s: RNG-only baseline making the same draws; ratio: engine / baseline CPU time',
);
console.log(
  "diff: measured - target in percentage points; z: (measured - theory) / standard error, the noise in units of its own size; σ/spin: standard deviation of one paid round's win, in bets; bonus: feature trigger rate\n",
);
console.log(row(columns.map(([name]) => name)));

let failures = 0;
const wallStarted = performance.now();
for (const game of games) {
  const model = findModel(game.model);
  if (!model) throw new Error(`catalog game ${game.gameId} names unknown model ${game.model}`);
  for (const profile of profiles) {
    const target = profile === 'standard' ? game.rtp : game.streamerRtp;
    const theory = theoreticalRtp(model, profile);
    const started = cpuMs();
    const result = simulate(model, profile, spins, `${values.seed}:${game.gameId}:${profile}`);
    const engineMs = cpuMs() - started;
    const bounds = drawBounds(model, profile);
    const drawnSpins = result.spins + result.bonusGames;
    const baseline = baselineMs(bounds, drawnSpins, `${values.seed}:baseline`);
    const diff = result.rtp - target;
    const pass = Math.abs(diff) <= TOLERANCE;
    if (!pass) failures++;
    console.log(
      row([
        `${game.gameId} ${game.name}`,
        profile,
        result.spins.toLocaleString('en'),
        `${(((result.spins / engineMs) * 1000) / 1e6).toFixed(2)}M`,
        pct(target, 2),
        pct(theory),
        pct(result.rtp),
        `${diff >= 0 ? '+' : ''}${(diff * 100).toFixed(3)}`,
        ((result.rtp - theory) / (result.stdDevPerSpin / Math.sqrt(result.spins))).toFixed(2),
        result.stdDevPerSpin.toFixed(2),
        pct(result.hitRate, 1),
        result.bonusTriggerRate > 0 ? `1/${(1 / result.bonusTriggerRate).toFixed(0)}` : '-',
        `${((((drawnSpins * bounds.length) / baseline.ms) * 1000) / 1e6).toFixed(1)}M`,
        (engineMs / baseline.ms).toFixed(2),
        pass ? 'PASS' : 'FAIL',
      ]),
    );
    if (baseline.sink < 0) console.log('unreachable: keeps the baseline loop from being optimised away');
  }
}
console.log(
  `\ntotal wall time ${((performance.now() - wallStarted) / 1000).toFixed(1)} s, CPU time ${(cpuMs() / 1000).toFixed(1)} s`,
);
console.log(
  `${failures === 0 ? 'all within' : `${failures} outside`} ±${(TOLERANCE * 100).toFixed(1)} percentage points of the target RTP`,
);
process.exitCode = failures === 0 ? 0 : 1;
