/**
 * The end of the replica proof: wait until the cluster has drained, then check it.
 *
 * Settled means: every replica ready again, no round open in the event log, every settled free
 * spin's and paid round's win published on `wallet.requests`, every consumer group caught up with
 * the wallet topics, and the event log, the bus and the sandbox's ledger unchanged for a while.
 *
 * The checks, each a list of readable problems (empty when it holds):
 * - money: the sandbox ledger of each operator reconciles with that operator's part of the event
 *   log to the cent (reconcile.ts: every settled bet and win applied once, every canceled bet
 *   refunded or never applied, every free spin's win applied once with its bonusId, balances);
 * - rounds: every round ended exactly once (one RoundSettled or one RoundCanceled) and none is open;
 * - caps: no bonus call's free-spin wins add up beyond its callAmount;
 * - sends: how often each win was published on `wallet.requests` — the messages on the log, before
 *   the dispatcher's de-duplication (its walletTx record) — at most 1 + the interruptions of the
 *   sending service between its first and its last sending: the kills of its replicas, and what its
 *   replicas logged as a send to retry (the relay or outbox failed and starts again from its
 *   checkpoint; on Kafka a publish whose acknowledgement was lost may be in the log already) or a
 *   lease lost without a kill. A win the dispatcher put back from a delay topic (its operator's
 *   circuit was open) is counted apart, not as a sending. The log does not say which replica
 *   published a message, so every replica of the service counts (the bound is the looser for it);
 * - double clicks: no double click placed two bets;
 * - failed spins: each failed for what the chaos explains (a replica killed mid-request, a wallet or
 *   bonus-ledger call that timed out while its replica restarted, a spin refused while the player's
 *   last round was open, a bonus used up, the wallet's refusal), never an unexpected error; and
 *   every operator's players had most of their spins accepted (the same player ids play under each).
 *   On Kafka with the test's broker outage, a bet the bus could not take during it is answered 503
 *   WALLET_UNAVAILABLE like a bet not answered in time, and spins answered during it are kept out of
 *   the accepted share.
 *
 * The bus and the event log are read through replica-engines.ts: SQLite, or Kafka and PostgreSQL.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readEventLog, readSandboxLedger, reconcile, type EventLog } from './reconcile.js';
import type { ReplicaCluster, ReplicatedService } from './replica-cluster.js';
import type { ClusterLog, EventReader, PublishedRequest } from './replica-engines.js';
import type { PlayerAccount, TrafficFigures } from './replica-traffic.js';
import { sleep } from './replica-traffic.js';
import { SandboxAdmin } from './clients.js';

interface DrainState {
  openRounds: number;
  unsentWins: number;
  consumerLag: number;
  fingerprint: string;
}

async function drainState(log: ClusterLog): Promise<DrainState> {
  const openRounds = await log.events.openRounds();
  const sent = new Set(
    (await log.bus.walletRequests()).map(
      ({ value }) => (JSON.parse(value) as { transactionId?: number }).transactionId,
    ),
  );
  let unsentWins = 0;
  for (const { type, data } of await log.events.eventsOfTypes(['FreeSpinSettled', 'RoundSettled'])) {
    const parsed = data as { transactionId?: number; winTransactionId?: number };
    const transactionId = type === 'FreeSpinSettled' ? parsed.transactionId : parsed.winTransactionId;
    if (transactionId !== undefined && !sent.has(transactionId)) unsentWins += 1;
  }
  const consumerLag = await log.bus.laggingPartitions();
  return {
    openRounds,
    unsentWins,
    consumerLag,
    fingerprint: `${await log.events.fingerprint()}/${await log.bus.fingerprint()}`,
  };
}

function sandboxFingerprint(dataDir: string): string {
  const db = new Database(join(dataDir, 'operator-sandbox.db'), { readonly: true, fileMustExist: true });
  try {
    return String(db.prepare('SELECT max(seq) FROM sandbox_requests').pluck().get());
  } finally {
    db.close();
  }
}

/** Polls until drained and unchanged for `quietMs`; resolves with how long it took, or a reason it did not. */
export async function settle(
  cluster: ReplicaCluster,
  timeoutMs: number,
  quietMs = 3_000,
): Promise<{ ms: number; settled: boolean; last: DrainState }> {
  const started = Date.now();
  await cluster.allReady();
  let quietSince = Date.now();
  let previous = '';
  for (;;) {
    const state = await drainState(cluster.log);
    const fingerprint = `${state.fingerprint}/${sandboxFingerprint(cluster.dataDir)}`;
    const drained = state.openRounds === 0 && state.unsentWins === 0 && state.consumerLag === 0;
    if (fingerprint !== previous || !drained) quietSince = Date.now();
    previous = fingerprint;
    if (drained && Date.now() - quietSince >= quietMs) return { ms: Date.now() - started, settled: true, last: state };
    if (Date.now() - started > timeoutMs) return { ms: Date.now() - started, settled: false, last: state };
    await sleep(500);
  }
}

export interface SendFigures {
  /** Per source: transactions, messages, transactions sent more than once, the most sends of one. */
  bySource: Record<string, { transactions: number; messages: number; duplicated: number; most: number }>;
  /** Messages the dispatcher put back on `wallet.requests` from a delay topic (counted apart, not as sendings). */
  returnedFromDelay: number;
  /** Wins sent more often than 1 + the interruptions of their sender in the window. */
  beyondBound: string[];
}

const SENDER: Record<string, ReplicatedService> = {
  'bonus-ledger relay (free-spin wins)': 'bonus-ledger',
  'game-server round outbox (paid wins)': 'game-server',
  'game-server spins and resolver (bets)': 'game-server',
};

/**
 * Counts `wallet.requests` messages (in the order published) per transactionId, by the part of the platform that
 * publishes them. `interruptions`: the kills, and the sending workers' logged retries (`loggedRetries`); each
 * explains one more sending.
 */
export function countSends(
  published: readonly PublishedRequest[],
  interruptions: readonly Interruption[],
  startedAt: number,
): SendFigures {
  const sends = new Map<number, { source: string; at: number[] }>();
  const figures: SendFigures = { bySource: {}, returnedFromDelay: 0, beyondBound: [] };
  for (const { value, timestamp, returned } of published) {
    // Not a sending of the relay or the outbox: the dispatcher's own return of it from a delay topic.
    if (returned) {
      figures.returnedFromDelay += 1;
      continue;
    }
    const request = JSON.parse(value) as { command: string; transactionId: number; bonusId?: number };
    const source =
      request.command === 'win'
        ? request.bonusId
          ? 'bonus-ledger relay (free-spin wins)'
          : 'game-server round outbox (paid wins)'
        : request.command === 'redrive'
          ? 'wallet:redrive'
          : 'game-server spins and resolver (bets)';
    const entry = sends.get(request.transactionId) ?? { source, at: [] };
    entry.at.push(timestamp - startedAt);
    sends.set(request.transactionId, entry);
  }
  for (const [transactionId, { source, at }] of sends) {
    const bucket = (figures.bySource[source] ??= { transactions: 0, messages: 0, duplicated: 0, most: 0 });
    bucket.transactions += 1;
    bucket.messages += at.length;
    bucket.most = Math.max(bucket.most, at.length);
    if (at.length > 1) bucket.duplicated += 1;
    // The issue's bound is about relay and outbox sends; a bet is sent again by design when its answer is late.
    if (source.includes('bets') || at.length === 1) continue;
    const sender = SENDER[source];
    const first = at[0] ?? 0;
    const last = at.at(-1) ?? 0;
    const hits = interruptions.filter((cut) => cut.service === sender && cut.at >= first - 50 && cut.at <= last);
    if (at.length > 1 + hits.length)
      figures.beyondBound.push(
        `transaction ${transactionId} (${source}) sent ${at.length} times at +${at.join(', +')} ms, with ${hits.length} kill(s) or logged retries of a ${sender} replica in between${hits.length ? ` (${hits.map((cut) => cut.why ?? 'kill').join('; ')})` : ''}`,
      );
  }
  return figures;
}

/** What explains one more sending of a win by `service` at `at` (ms since the cluster's start). */
export interface Interruption {
  readonly at: number;
  readonly service: ReplicatedService;
  /** Said in a problem's line; a kill has none. */
  readonly why?: string;
}

/** The log lines of a sending worker that mean a send may be made again: its retry from the checkpoint, a lease lost. */
const RETRY_LINES: Partial<Record<ReplicatedService, { retried: string; worker: string }>> = {
  'game-server': { retried: 'round outbox failed; retrying', worker: 'round-outbox' },
  'bonus-ledger': { retried: 'bonus event relay failed; retrying', worker: 'relay' },
};

/** The relay's and the outbox's logged retries and lost leases, from every process of their services' replicas. */
function loggedRetries(cluster: ReplicaCluster): Interruption[] {
  const found: Interruption[] = [];
  for (const [service, lines] of Object.entries(RETRY_LINES) as [
    ReplicatedService,
    { retried: string; worker: string },
  ][])
    for (const replica of cluster.of(service))
      for (const process of replica.processes)
        for (const line of process.lines) {
          if (!line.includes(lines.retried) && !line.includes('"lease lost"')) continue;
          let entry: { time?: string; msg?: string; worker?: string; error?: { message?: string } };
          try {
            entry = JSON.parse(line) as typeof entry;
          } catch {
            continue; // not a log entry of the app's logger
          }
          const lost = entry.msg === 'lease lost' && entry.worker === lines.worker;
          if (entry.msg !== lines.retried && !lost) continue;
          const at = Date.parse(entry.time ?? '') - cluster.startedAt;
          const said = lost ? `${lines.worker} lease lost` : `${entry.msg}: ${entry.error?.message ?? ''}`;
          found.push({ at, service, why: `+${at} ms ${replica.instanceId} ${said.slice(0, 160)}` });
        }
  return found;
}

/** The dispatcher's own record: attempts made again after a crash left one without an outcome. */
async function dispatcherRedeliveries(
  events: EventReader,
): Promise<{ recoveryAttempts: number; transactionsRecovered: number }> {
  const streams = await events.recoveryAttemptStreams();
  return { recoveryAttempts: streams.length, transactionsRecovered: new Set(streams).size };
}

/** Callbacks the operator's wallet received more than once for one transactionId (it answers a repeat from its record). */
function callbacksReceivedAgain(dataDir: string): { transactions: number; repeats: number } {
  const db = new Database(join(dataDir, 'operator-sandbox.db'), { readonly: true, fileMustExist: true });
  try {
    const [transactions, repeats] = db
      .prepare(
        `SELECT count(*), coalesce(sum(received - 1), 0) FROM
           (SELECT count(*) AS received FROM sandbox_requests WHERE transaction_id IS NOT NULL
            GROUP BY operator_id, transaction_id, command HAVING count(*) > 1)`,
      )
      .raw()
      .get() as [number, number];
    return { transactions, repeats };
  } finally {
    db.close();
  }
}

/** Every round ended exactly once; every bonus call's free-spin wins within its cap. */
async function roundsAndCaps(events: EventReader): Promise<{ rounds: number; problems: string[]; capped: number }> {
  const problems: string[] = [];
  const rounds = await events.roundEnds();
  for (const [stream, started, settled, canceled] of rounds)
    if (started !== 1 || settled + canceled !== 1)
      problems.push(`${stream}: ${started} start(s), ${settled} settlement(s), ${canceled} cancel(s)`);
  const caps = new Map<number, { cap: number; won: number }>();
  for (const { type, data } of await events.eventsOfTypes(['BonusCallRegistered', 'FreeSpinSettled'])) {
    const parsed = data as { issueId: number; callAmountMinor?: number; winMinor?: number };
    const entry = caps.get(parsed.issueId) ?? { cap: Number.POSITIVE_INFINITY, won: 0 };
    if (type === 'BonusCallRegistered') entry.cap = parsed.callAmountMinor ?? entry.cap;
    else entry.won += parsed.winMinor ?? 0;
    caps.set(parsed.issueId, entry);
  }
  let capped = 0;
  for (const [issueId, { cap, won }] of caps) {
    if (won > cap) problems.push(`bonus call ${issueId} paid ${won} in free-spin wins, over its cap of ${cap}`);
    if (won === cap) capped += 1;
  }
  return { rounds: rounds.length, problems, capped };
}

/**
 * The double clicks both accepted whose two rounds were open at once (each one's RoundStarted
 * before the other's end, in log order): two spins of one session in flight together. A pair one
 * after the other is the second click arriving after the first spin had finished: a lock cannot
 * refuse that, and it is not counted; nor is a pair answered with one and the same round.
 */
export async function overlappingPairs(events: EventReader, pairs: readonly [number, number][]): Promise<string[]> {
  if (pairs.length === 0) return [];
  const spans = await events.roundSpans([...new Set(pairs.flat())]);
  const spanOf = (roundId: number) => spans.get(roundId) ?? { start: Number.NaN, end: Number.POSITIVE_INFINITY };
  return pairs.flatMap(([one, other]) => {
    // Both clicks answered with the same round: one spin, the second answered from its record.
    if (one === other) return [];
    const a = spanOf(one);
    const b = spanOf(other);
    return a.start < b.end && b.start < a.end ? [`${one} and ${other}`] : [];
  });
}

function logOf(log: EventLog, operatorId: string): EventLog {
  const rounds = new Map([...log.rounds].filter(([, round]) => round.started.operatorId === operatorId));
  return { rounds, freeSpins: log.freeSpins.filter((spin) => rounds.has(spin.roundId)) };
}

/** reconcile.ts per operator: its players' balances against its part of the log. */
async function reconcileMoney(
  cluster: ReplicaCluster,
  accounts: readonly PlayerAccount[],
): Promise<{ problems: string[]; transactions: number }> {
  const log = await readEventLog(cluster.dataDir, cluster.engines?.eventStoreUrl);
  const problems: string[] = [];
  let transactions = 0;
  for (const operatorId of new Set(accounts.map((account) => account.operator.id))) {
    const mine = accounts.filter((account) => account.operator.id === operatorId);
    const admin = new SandboxAdmin(() => cluster.sandboxUrl, operatorId);
    const balances = new Map<string, { openingMinor: number; balanceMinor: number }>();
    for (const account of mine)
      balances.set(account.playerId, {
        openingMinor: account.openingMinor,
        balanceMinor: await admin.balanceMinor(account.playerId, account.operator.currency),
      });
    const ledger = readSandboxLedger(cluster.dataDir, operatorId);
    transactions += ledger.length;
    problems.push(...reconcile(logOf(log, operatorId), ledger, balances).map((line) => `${operatorId}: ${line}`));
  }
  return { problems, transactions };
}

/**
 * Why a spin may fail while replicas are killed: the request's replica died (a network error), a call
 * it made timed out while another restarted or the bus could not take it (503 WALLET_UNAVAILABLE,
 * SERVICE_UNAVAILABLE), the player's previous round was still open (409 SPIN_IN_PROGRESS), the bonus
 * was used up, or the wallet refused the bet. Anything else — 503 INTERNAL above all — is a defect the chaos only uncovered.
 */
const EXPLAINED_FAILURE =
  /: (network \S+|503 WALLET_UNAVAILABLE|503 SERVICE_UNAVAILABLE|409 SPIN_IN_PROGRESS|409 FREE_SPIN_IN_PROGRESS|409 BET_REJECTED|404 BONUS_NOT_FOUND|409 BONUS_NOT_ACTIVE|409 BONUS_ALREADY_COMPLETED)$/;
/** Of each operator's spins at least this share is accepted: a short run accepts about two thirds. */
const MIN_ACCEPTED_SHARE = 0.35;

/** The bets a game-server could not send (its spin answered 503 WALLET_UNAVAILABLE, the resolver sent it later). */
function betsTheBusDidNotTake(cluster: ReplicaCluster): number {
  return cluster
    .of('game-server')
    .flatMap((replica) => replica.processes.flatMap((process) => process.lines))
    .filter((line) => line.includes('"msg":"bet not answered') && line.includes('the bus did not take it')).length;
}

function spinFailures(figures: TrafficFigures): string[] {
  const unexplained = Object.entries(figures.outcomes)
    .filter(([outcome]) => !EXPLAINED_FAILURE.test(outcome))
    .map(([outcome, count]) => `${count} × ${outcome}`);
  const starved = Object.entries(figures.spinsByOperator)
    .filter(([, { accepted, failed }]) => accepted < MIN_ACCEPTED_SHARE * (accepted + failed))
    .map(
      ([operatorId, { accepted, failed }]) =>
        `operator ${operatorId}: ${accepted} of ${accepted + failed} spins accepted (under ${MIN_ACCEPTED_SHARE * 100} %)`,
    );
  return [...unexplained, ...starved];
}

/**
 * A failure of the spins' assertion, followed by the error lines the game-servers logged for the spin
 * route (the first five, each cut at 600 characters): what a 503 INTERNAL was, so that a failed run
 * says why without its processes' logs.
 */
function withSpinErrors(problems: string[], cluster: ReplicaCluster): string[] {
  if (problems.length === 0) return problems;
  const errors = cluster
    .of('game-server')
    .flatMap((replica) => replica.processes.flatMap((process) => process.lines))
    .filter((line) => line.includes('"level":"error"') && line.includes('"path":"/sessions/:token/spin"'));
  return [...problems, ...errors.slice(0, 5).map((line) => `game-server logged: ${line.slice(0, 600)}`)];
}

export interface ProofReport {
  figures: Record<string, unknown>;
  /** Each assertion of the issue and the problems found (empty: it held). */
  assertions: Record<string, string[]>;
}

export async function proveCluster(
  cluster: ReplicaCluster,
  traffic: { figures: TrafficFigures; accounts: PlayerAccount[] },
  timings: { trafficMs: number; settleMs: number; settled: boolean; lastDrainState: unknown },
): Promise<ProofReport> {
  const money = await reconcileMoney(cluster, traffic.accounts);
  const rounds = await roundsAndCaps(cluster.log.events);
  const sends = countSends(
    await cluster.log.bus.walletRequests(),
    [...cluster.kills, ...loggedRetries(cluster)],
    cluster.startedAt,
  );
  const redeliveries = await dispatcherRedeliveries(cluster.log.events);
  const killsByService: Record<string, number> = {};
  for (const kill of cluster.kills) killsByService[kill.service] = (killsByService[kill.service] ?? 0) + 1;
  // On Kafka a start still under way when the test's broker went down failed, and was started again.
  const notReady = cluster.engines
    ? ' (killed again, or its start refused by the broker outage, before ready)'
    : ' (killed again before ready)';
  const killLog = cluster.kills
    .map(
      (kill) =>
        `+${(kill.at / 1_000).toFixed(1)}s ${kill.instanceId}${kill.readyAfterMs === undefined ? notReady : ` (ready ${(kill.readyAfterMs / 1_000).toFixed(1)}s later)`}`,
    )
    .join(', ');
  const restartTimes = cluster.kills.flatMap((kill) => (kill.readyAfterMs === undefined ? [] : [kill.readyAfterMs]));
  const { doubleClicks } = traffic.figures;
  const clickOverlaps = {
    paid: await overlappingPairs(cluster.log.events, doubleClicks.paid.acceptedPairs),
    free: await overlappingPairs(cluster.log.events, doubleClicks.free.acceptedPairs),
  };
  return {
    figures: {
      kills: cluster.kills.length,
      killsByService,
      restartToReadyMs: {
        median: restartTimes.sort((a, b) => a - b)[Math.floor(restartTimes.length / 2)],
        max: restartTimes.at(-1),
      },
      traffic: {
        ...traffic.figures,
        doubleClicks: Object.fromEntries(
          (['paid', 'free'] as const).map((kind) => {
            const { acceptedPairs, ...counts } = doubleClicks[kind];
            return [
              kind,
              {
                ...counts,
                bothAcceptedOpenAtOnce: clickOverlaps[kind].length,
                bothAcceptedSameRound: acceptedPairs.filter(([one, other]) => one === other).length,
                bothAcceptedOneAfterTheOther:
                  acceptedPairs.filter(([one, other]) => one !== other).length - clickOverlaps[kind].length,
              },
            ];
          }),
        ),
      },
      rounds: rounds.rounds,
      bonusCallsAtTheirCap: rounds.capped,
      sandboxTransactions: money.transactions,
      sendsPerSource: sends.bySource,
      returnedFromDelayTopics: sends.returnedFromDelay,
      dispatcherRedeliveries: redeliveries,
      ...(cluster.engines
        ? {
            startsRefusedWhileTheBrokerWasDown: cluster.replicas.flatMap((replica) => replica.refusedStarts),
            betsTheBusDidNotTake: betsTheBusDidNotTake(cluster),
          }
        : {}),
      callbacksReceivedAgainByTheOperator: callbacksReceivedAgain(cluster.dataDir),
      ...timings,
      killLog,
    },
    assertions: {
      'settled (no open rounds, wins all sent, consumers caught up)': timings.settled
        ? []
        : [`did not settle: ${JSON.stringify(timings.lastDrainState)}`],
      [cluster.engines
        ? 'no replica exited but by our SIGKILL (or failed to start while the Kafka broker was down)'
        : 'no replica exited but by our SIGKILL']: cluster.replicas.flatMap((replica) => replica.unexpectedExits),
      'the sandbox ledger reconciles with the event log to the cent': money.problems,
      'every round ended exactly once; no bonus over its cap': rounds.problems,
      'each relay/outbox win sent at most 1 + kills and logged retries of its sender': sends.beyondBound,
      'spins failed only for what the chaos explains; every operator played': withSpinErrors(
        spinFailures(traffic.figures),
        cluster,
      ),
      'no double click placed two spins at once': (['paid', 'free'] as const).flatMap((kind) => {
        const overlapping = clickOverlaps[kind];
        return overlapping.length
          ? [
              `${overlapping.length} of ${doubleClicks[kind].sent} double clicks of a ${kind} spin were both accepted with their two rounds open at once (two ${kind === 'paid' ? 'bets' : 'free spins'} from one click), e.g. rounds ${overlapping.slice(0, 3).join('; ')}`,
            ]
          : [];
      }),
    },
  };
}
