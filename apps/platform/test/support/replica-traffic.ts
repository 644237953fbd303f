/**
 * The replica proof's traffic and chaos. Players reach a service through a load
 * balancer that spreads requests round-robin over its replicas and, as a real one would, tries
 * the next replica when a connection is refused (a replica killed and not listening yet); a
 * request that was cut after it was sent is not retried and counts as an unknown outcome.
 * Each player: a free-spin bonus from its operator, a launch, then its free spins and paid spins
 * until told to stop; some paid spins are double clicks, the same spin sent to two game-server
 * replicas at once. Meanwhile the chaos monkey SIGKILLs a random replica at random times.
 */
import { formatLocalDateTime, wallClockAt } from '@reelstream/contracts';
import { call, type JsonResponse, type OperatorAccount, SandboxAdmin } from './clients.js';
import type { Kill, Replica, ReplicaCluster, ReplicatedService } from './replica-cluster.js';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** A player's request given up after this long (a load balancer's timeout). */
const CLIENT_TIMEOUT_MS = 20_000;
const between = (low: number, high: number) => low + Math.random() * (high - low);

/** Refused before anything was sent: safe to send to another replica. */
function connectionRefused(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
  return cause?.code === 'ECONNREFUSED';
}

class LoadBalancer {
  private next = 0;
  refusedRetries = 0;

  constructor(private readonly replicas: () => readonly Replica[]) {}

  /** Replicas that refused a connection: passed over until their readiness probe (the `ready` line) passes again. */
  private readonly down = new Set<Replica>();

  /** The replicas in the order this request tries them: the ones not known down first, then the others. */
  private rotation(): Replica[] {
    const all = this.replicas();
    const start = this.next++ % all.length;
    const turn = [...all.slice(start), ...all.slice(0, start)];
    for (const replica of turn) if (replica.ready && this.down.has(replica)) this.down.delete(replica);
    return [...turn.filter((replica) => !this.down.has(replica)), ...turn.filter((replica) => this.down.has(replica))];
  }

  /** One request, retried on connection refused over every replica for up to `patienceMs`. */
  async call(method: string, path: string, options: { token?: string; json?: unknown } = {}, patienceMs = 15_000) {
    const giveUpAt = Date.now() + patienceMs;
    for (;;) {
      for (const replica of this.rotation()) {
        try {
          return await call(method, `${replica.url}${path}`, { ...options, timeoutMs: CLIENT_TIMEOUT_MS });
        } catch (error) {
          if (!connectionRefused(error)) throw error;
          this.refusedRetries += 1;
          this.down.add(replica);
        }
      }
      if (Date.now() > giveUpAt) throw new Error(`every replica refused ${method} ${path} for ${patienceMs} ms`);
      await sleep(100);
    }
  }
}

/** One line on stderr: how far the run is (a long run is otherwise silent for minutes). */
export function progressLine(cluster: ReplicaCluster, figures: TrafficFigures): string {
  const ready = (['gateway', 'bonus-ledger', 'wallet-dispatcher', 'game-server'] as const)
    .map((service) => `${service} ${cluster.of(service).filter((replica) => replica.ready).length}/3`)
    .join(', ');
  const recent = cluster.kills
    .slice(-10)
    .flatMap((kill) => (kill.readyAfterMs === undefined ? [] : [kill.readyAfterMs]));
  const restart = recent.length ? Math.round(recent.reduce((sum, ms) => sum + ms, 0) / recent.length) : undefined;
  return `replicas +${Math.round((Date.now() - cluster.startedAt) / 1_000)}s: ${cluster.kills.length} kills; ready ${ready}; recent restarts ${restart ?? '?'} ms; spins free ${figures.freeSpins.accepted}/${figures.freeSpins.failed} paid ${figures.paidSpins.accepted}/${figures.paidSpins.failed} (accepted/failed)`;
}

export interface TrafficFigures {
  players: number;
  bonuses: number;
  freeSpins: { accepted: number; failed: number };
  paidSpins: { accepted: number; failed: number };
  /** The same spin sent to two game-server replicas at once, by spin kind. */
  doubleClicks: Record<'free' | 'paid', DoubleClicks>;
  /** Refusals and failures by HTTP status and error code (or network error). */
  outcomes: Record<string, number>;
  /** Spins (free and paid, each click of a double click) by operator: the same player ids play under every operator. */
  spinsByOperator: Record<string, { accepted: number; failed: number }>;
  /** Spins answered while `runTraffic`'s `asideWhile` held (the Kafka broker down), kept out of `spinsByOperator`. */
  spinsAside?: { accepted: number; failed: number };
  refusedConnectionsRetried: number;
}

interface DoubleClicks {
  sent: number;
  /** One accepted, the other refused SPIN_IN_PROGRESS: what the issue asks for. */
  oneRefusedInProgress: number;
  /** Both accepted: two spins (two bets, for a paid one) from one click. */
  bothAccepted: number;
  /** The two rounds of each double click both accepted: the proof looks whether they were open at once. */
  acceptedPairs: [number, number][];
  /** Anything else (a replica killed mid-request, a wallet time-out…). */
  other: number;
}

export interface PlayerAccount {
  operator: OperatorAccount;
  playerId: string;
  openingMinor: number;
}

const BET = 0.2;
/** How long a held bonus stays unplayed (see `play`). */
const HOLD_BONUS_MS = 8_000;
const OPENING_BALANCE = 500;

function outcomeOf(result: PromiseSettledResult<JsonResponse>): string {
  if (result.status === 'rejected') {
    const cause = (result.reason as { cause?: { code?: string } } | undefined)?.cause?.code;
    return `network ${cause ?? String((result.reason as Error | undefined)?.name)}`;
  }
  const { status, body } = result.value;
  if (status === 200) return '200';
  const code = (body as { error?: { code?: string } } | undefined)?.error?.code;
  return `${status} ${code ?? ''}`.trim();
}

/**
 * Runs `count` players per operator (the same player ids under every operator) until `stop`
 * resolves; resolves with the figures and the accounts (opening balances) to reconcile.
 */
export async function runTraffic(
  cluster: ReplicaCluster,
  operators: readonly OperatorAccount[],
  playersPerOperator: number,
  stop: Promise<void>,
  options: {
    doubleClickShare?: number;
    thinkMs?: readonly [number, number];
    /** Receives the figures object as it is filled (for progress lines). */
    onFigures?: (figures: TrafficFigures) => void;
    /**
     * While this holds (the test's Kafka broker outage), a spin's answer counts in `spinsAside`, not
     * in its operator's share: a total outage of the bus refuses every spin on purpose.
     */
    asideWhile?: () => boolean;
  } = {},
): Promise<{ figures: TrafficFigures; accounts: PlayerAccount[] }> {
  const { doubleClickShare = 0.15, thinkMs = [150, 600] } = options;
  const gateway = new LoadBalancer(() => cluster.of('gateway'));
  const game = new LoadBalancer(() => cluster.of('game-server'));
  let stopped = false;
  void stop.then(() => {
    stopped = true;
  });
  const figures: TrafficFigures = {
    players: 0,
    bonuses: 0,
    freeSpins: { accepted: 0, failed: 0 },
    paidSpins: { accepted: 0, failed: 0 },
    doubleClicks: {
      free: { sent: 0, oneRefusedInProgress: 0, bothAccepted: 0, acceptedPairs: [], other: 0 },
      paid: { sent: 0, oneRefusedInProgress: 0, bothAccepted: 0, acceptedPairs: [], other: 0 },
    },
    outcomes: {},
    spinsByOperator: Object.fromEntries(operators.map((operator) => [operator.id, { accepted: 0, failed: 0 }])),
    refusedConnectionsRetried: 0,
    ...(options.asideWhile ? { spinsAside: { accepted: 0, failed: 0 } } : {}),
  };
  options.onFigures?.(figures);
  const count = (outcome: string) => {
    figures.outcomes[outcome] = (figures.outcomes[outcome] ?? 0) + 1;
  };
  const accounts: PlayerAccount[] = [];

  /** Money-free requests (registration is idempotent by platformId, D17) are retried until they succeed. */
  const untilOk = async (what: string, attempt: () => Promise<JsonResponse>): Promise<JsonResponse> => {
    for (let tries = 1; ; tries++) {
      try {
        const response = await attempt();
        if (response.status === 200) return response;
        if (tries > 20) throw new Error(`${what}: HTTP ${response.status} ${JSON.stringify(response.body)}`);
      } catch (error) {
        if (tries > 20) throw error;
      }
      await sleep(250);
    }
  };

  const play = async (operator: OperatorAccount, playerId: string, number: number) => {
    await new SandboxAdmin(() => cluster.sandboxUrl, operator.id).setBalance(playerId, OPENING_BALANCE);
    accounts.push({ operator, playerId, openingMinor: OPENING_BALANCE * 100 });
    figures.players += 1;
    // Every fourth player's bonus has a cap a few spins can reach (callAmount 1.00 at base bet 0.20).
    const capped = number % 4 === 0;
    const expireAt = formatLocalDateTime(
      wallClockAt(Math.ceil((Date.now() + 86_400_000) / 1_000) * 1_000, operator.timeZone),
    );
    const registered = await untilOk('register', () =>
      gateway.call('POST', '/v1/bonus-call/register', {
        token: operator.token,
        json: {
          platformId: `replicas-${operator.id}-${playerId}`,
          providerId: 1,
          gameId: 101,
          playerId,
          bonusType: 1,
          callAmount: capped ? 1 : 500,
          expireAt,
          metaData: { spinAmount: 3 + (number % 4), baseBetAmount: BET },
        },
      }),
    );
    figures.bonuses += 1;
    const issueId = Number(registered.body.data.issueId);
    const launched = await untilOk('launch', () =>
      gateway.call('POST', '/v1/game/launch', {
        token: operator.token,
        json: {
          playerId,
          providerId: 1,
          gameId: 101,
          language: 'en',
          returnUrl: 'https://casino.example/lobby',
          isStreamer: false,
        },
      }),
    );
    const token = new URL(String(launched.body.data)).searchParams.get('token') ?? '';
    const spinPath = `/api/sessions/${token}/spin`;
    let freeSpinsOver = false;
    // Every fifth player of the last operator keeps its bonus unplayed for a while, so the player with its id
    // under another operator spins (and bets) while it is active: each must see only its own operator's bonus.
    if (operator === operators.at(-1) && operators.length > 1 && number % 5 === 1) await sleep(HOLD_BONUS_MS);

    while (!stopped) {
      await sleep(between(thinkMs[0], thinkMs[1]));
      if (stopped) break;
      const kind = freeSpinsOver ? 'paid' : 'free';
      const body = kind === 'free' ? { issueId } : { bet: BET };
      const tally = kind === 'free' ? figures.freeSpins : figures.paidSpins;
      const up = cluster.of('game-server').filter((replica) => replica.ready);
      const double = Math.random() < doubleClickShare && up.length >= 2;
      let outcomes: string[];
      let responses: (JsonResponse | undefined)[];
      if (double) {
        // The same click twice, to two replicas at once.
        const [first, second] = up.sort(() => Math.random() - 0.5) as [Replica, Replica];
        const both = await Promise.allSettled(
          [first, second].map((replica) =>
            call('POST', `${replica.url}${spinPath}`, { json: body, timeoutMs: CLIENT_TIMEOUT_MS }),
          ),
        );
        outcomes = both.map(outcomeOf);
        responses = both.map((result) => (result.status === 'fulfilled' ? result.value : undefined));
        const clicks = figures.doubleClicks[kind];
        clicks.sent += 1;
        if (outcomes.every((outcome) => outcome === '200')) {
          clicks.bothAccepted += 1;
          const [one, other] = responses.map((response) => Number(response?.body.data.roundId));
          clicks.acceptedPairs.push([one ?? 0, other ?? 0]);
        } else if (outcomes.includes('200') && outcomes.some((outcome) => outcome.includes('SPIN_IN_PROGRESS')))
          clicks.oneRefusedInProgress += 1;
        else clicks.other += 1;
      } else {
        const result = (await Promise.allSettled([game.call('POST', spinPath, { json: body })]))[0];
        outcomes = result ? [outcomeOf(result)] : [];
        responses = [result?.status === 'fulfilled' ? result.value : undefined];
      }
      const ofOperator = figures.spinsByOperator[operator.id] ?? { accepted: 0, failed: 0 };
      figures.spinsByOperator[operator.id] = ofOperator;
      const byOperator = (options.asideWhile?.() ? figures.spinsAside : undefined) ?? ofOperator;
      outcomes.forEach((outcome, at) => {
        if (outcome !== '200') {
          tally.failed += 1;
          byOperator.failed += 1;
          count(`${double ? 'double-clicked ' : ''}${kind} spin: ${outcome}`);
          if (/BONUS_NOT_FOUND|BONUS_NOT_ACTIVE|BONUS_COMPLETED/.test(outcome)) freeSpinsOver = true;
          return;
        }
        tally.accepted += 1;
        byOperator.accepted += 1;
        const data = responses[at]?.body.data as { kind?: string; bonus?: { completed?: boolean } | null } | undefined;
        if (data?.kind !== 'free' || data.bonus?.completed) freeSpinsOver = true;
      });
    }
  };

  const players = operators.flatMap((operator) =>
    Array.from({ length: playersPerOperator }, (_, number) =>
      play(operator, `player_${String(number).padStart(3, '0')}`, number),
    ),
  );
  await Promise.all(players);
  figures.refusedConnectionsRetried = gateway.refusedRetries + game.refusedRetries;
  return { figures, accounts };
}

/**
 * SIGKILLs a random ready replica (never the last ready one of its service: the load balancer
 * needs one) every `meanGapMs` on average, restarting it at once, until `kills` were made or the
 * deadline (epoch ms) passed.
 */
export async function runChaos(
  cluster: ReplicaCluster,
  kills: number,
  meanGapMs: number,
  options: { deadline?: number; onKill?: (kill: Kill) => void } = {},
): Promise<void> {
  const { deadline = Number.POSITIVE_INFINITY, onKill = () => undefined } = options;
  while (cluster.kills.length < kills && Date.now() < deadline) {
    await sleep(between(0.3 * meanGapMs, 1.7 * meanGapMs));
    const readyOf = (service: ReplicatedService) => cluster.of(service).filter((replica) => replica.ready);
    const candidates = cluster.replicas.filter((replica) => replica.ready && readyOf(replica.service).length >= 2);
    const victim = candidates[Math.floor(Math.random() * candidates.length)];
    if (!victim) continue;
    onKill(await cluster.kill(victim));
  }
}
