/**
 * The restore drill's traffic, as the e2e suite drives it over HTTP: players each get a balance in
 * the operator's wallet (the sandbox), a free-spin bonus call registered through API v1, a game
 * session, their free spins and then paid spins. Several players at once, until told to stop.
 */
import { OperatorClient, PlayerClient, SandboxAdmin, expectOk } from './clients.js';
import type { RunningPlatform } from './topologies.js';

/** Every player starts with this much in the operator's wallet (EUR, so 5,000 minor units). */
const OPENING_BALANCE = 50;
const FREE_SPINS = 3;
const PAID_SPINS = 3;
const BET = 0.2;

export interface TrafficCounts {
  registrations: number;
  freeSpins: number;
  paidSpins: number;
}

export interface Traffic {
  /** The players played so far, with their opening balance in minor units. */
  readonly players: Map<string, number>;
  readonly counts: TrafficCounts;
  /** Stops starting players and resolves once every player in play has finished. */
  stop(): Promise<void>;
}

async function playOne(platform: RunningPlatform, playerId: string, counts: TrafficCounts): Promise<void> {
  const operator = new OperatorClient(() => platform.gatewayUrl, platform.operator);
  await new SandboxAdmin(() => platform.sandboxUrl, platform.operator.id).setBalance(playerId, OPENING_BALANCE);
  const issueId = await operator.registerFreeSpins({ playerId, spins: FREE_SPINS });
  counts.registrations += 1;
  const game = new PlayerClient(() => platform.gameUrl, await operator.launch(playerId));
  for (let spin = 0; spin < FREE_SPINS; spin++) {
    expectOk(await game.spin({ issueId }), `free spin of ${playerId}`);
    counts.freeSpins += 1;
  }
  for (let spin = 0; spin < PAID_SPINS; spin++) {
    expectOk(await game.spin({ bet: BET }), `paid spin of ${playerId}`);
    counts.paidSpins += 1;
  }
}

/** `concurrency` players in play at once, each new player named `{prefix}_{n}`. */
export function startTraffic(platform: RunningPlatform, prefix: string, concurrency: number): Traffic {
  const players = new Map<string, number>();
  const counts: TrafficCounts = { registrations: 0, freeSpins: 0, paidSpins: 0 };
  let stopping = false;
  let next = 0;
  const lanes = Array.from({ length: concurrency }, async () => {
    while (!stopping) {
      next += 1;
      const playerId = `${prefix}_${next}`;
      players.set(playerId, OPENING_BALANCE * 100);
      await playOne(platform, playerId, counts);
    }
  });
  const finished = Promise.all(lanes);
  // A lane that fails fails the drill when it stops; until then the others go on.
  finished.catch(() => undefined);
  return {
    players,
    counts,
    async stop() {
      stopping = true;
      await finished;
    },
  };
}
