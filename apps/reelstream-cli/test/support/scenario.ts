/**
 * The e2e scenario behind the analyst tests: the real platform in this process on the
 * embedded back ends — operator sandbox, bonus-ledger, wallet-dispatcher, game-server, gateway,
 * one SQLite data file — played over HTTP by two operators in two currencies:
 * - free spins to completion (both operators) and paid spins (slot bet + win, instant betwin);
 * - a cancel: a bet the sandbox applies but answers HTTP 500 for, canceled by the dispatcher;
 * - a bonus call that expires with spins left;
 * - a dead letter: a win the sandbox refuses three times.
 * Everything is stopped before it returns, so the tests read the data dir as an analyst would.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatLocalDateTime, spinResponse, wallClockAt } from '@reelstream/contracts';
import type { TransactionView } from '@reelstream/sandbox-adapters';
import { eventually } from '@reelstream/testing';
import { call, quiesce, SCENARIO_OPERATORS, startStack, type ScenarioOperator, type Stack } from './scenario-stack.js';

export { operatorsInput } from './scenario-stack.js';

const [EU, KR] = SCENARIO_OPERATORS as [ScenarioOperator, ScenarioOperator];

export interface ScenarioResult {
  /** The DATA_DIR: `reelstream.db` (event store and bus) and `sandbox.db` (the operator's wallet). */
  readonly dataDir: string;
  readonly eventStoreFile: string;
  readonly operators: readonly ScenarioOperator[];
  /** The sandbox's own ledger, every operator, oldest first. */
  readonly ledger: readonly TransactionView[];
  /** `GET /admin/transactions.csv` of each operator, as the sandbox exported it. */
  readonly exports: Readonly<Record<string, string>>;
  /** Every round the scenario played, settled or canceled. */
  readonly roundIds: readonly number[];
  readonly canceledRoundId: number;
  readonly deadLetteredRoundId: number;
  readonly expiredIssueId: number;
  readonly completedIssueIds: readonly number[];
}

let platformIds = 0;

/** Plays the operator's side (API v1) and the player's (the launch host) for one player. */
class Player {
  token = '';
  constructor(
    private readonly stack: Stack,
    readonly operator: ScenarioOperator,
    readonly playerId: string,
  ) {}

  async fund(amountMinor: number): Promise<void> {
    this.stack.sandbox.views.setBalance(this.operator.id, this.playerId, this.operator.currency, amountMinor);
  }

  async launch(gameId: number): Promise<void> {
    const response = await call('POST', `${this.stack.gatewayUrl}/v1/game/launch`, this.operator.token, {
      playerId: this.playerId,
      providerId: gameId >= 200 ? 2 : 1,
      gameId,
      language: 'en',
      returnUrl: 'https://casino.example/lobby',
      isStreamer: false,
    });
    if (response.status !== 200) throw new Error(`launch: ${JSON.stringify(response.body)}`);
    this.token = new URL(String(response.body.data)).searchParams.get('token') ?? '';
  }

  async register(gameId: number, spins: number, baseBet: number, callAmount: number, expireInMs: number) {
    const expireAt = formatLocalDateTime(
      wallClockAt(Math.ceil((Date.now() + expireInMs) / 1_000) * 1_000, this.operator.timeZone),
    );
    const response = await call('POST', `${this.stack.gatewayUrl}/v1/bonus-call/register`, this.operator.token, {
      platformId: `scenario-${this.playerId}-${++platformIds}`,
      providerId: gameId >= 200 ? 2 : 1,
      gameId,
      playerId: this.playerId,
      bonusType: 1,
      callAmount,
      expireAt,
      metaData: { spinAmount: spins, baseBetAmount: baseBet },
    });
    if (response.status !== 200) throw new Error(`register: ${JSON.stringify(response.body)}`);
    return Number(response.body.data.issueId);
  }

  /** One spin; the round it played (a canceled paid round answers with an error and names no round). */
  async spin(body: Record<string, unknown>): Promise<number | undefined> {
    const response = await call('POST', `${this.stack.gameUrl}/api/sessions/${this.token}/spin`, undefined, body);
    if (response.status !== 200) return undefined;
    return spinResponse.parse(response.body).data.roundId;
  }

  bonusStatus(issueId: number) {
    return call('GET', `${this.stack.gatewayUrl}/v1/bonus-call/${issueId}`, this.operator.token);
  }
}

async function playFreeSpinsToCompletion(player: Player, gameId: number, spins: number, baseBet: number, cap: number) {
  const issueId = await player.register(gameId, spins, baseBet, cap, 86_400_000);
  await player.launch(gameId);
  const rounds: number[] = [];
  for (let spin = 0; spin < spins; spin++) {
    const roundId = await player.spin({ issueId, bet: baseBet });
    if (roundId === undefined) throw new Error(`free spin ${spin + 1} of bonus ${issueId} failed`);
    rounds.push(roundId);
  }
  return { issueId, rounds };
}

async function playPaid(player: Player, gameId: number, bet: number, count: number): Promise<number[]> {
  await player.launch(gameId);
  const rounds: number[] = [];
  for (let spin = 0; spin < count; spin++) {
    const roundId = await player.spin({ bet });
    if (roundId === undefined) throw new Error(`paid spin ${spin + 1} of ${player.playerId} failed`);
    rounds.push(roundId);
  }
  return rounds;
}

async function roundIdsOfLog(stack: Stack): Promise<number[]> {
  const events = await stack.store.readAll({ filter: { streamPrefixes: ['round-'] } });
  return [
    ...new Set(events.filter((event) => event.type === 'RoundStarted').map((event) => Number(event.streamId.slice(6)))),
  ];
}

export async function runScenario(): Promise<ScenarioResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelstream-scenario-'));
  const stack = await startStack(dataDir);
  try {
    const ana = new Player(stack, EU, 'eu_ana');
    const ben = new Player(stack, EU, 'eu_ben');
    const min = new Player(stack, KR, 'kr_min');
    const joon = new Player(stack, KR, 'kr_joon');
    const dee = new Player(stack, KR, 'kr_dee');
    await ana.fund(50_000);
    await ben.fund(20_000);
    await min.fund(500_000);
    await joon.fund(100_000);
    await dee.fund(100_000);

    // The expiring bonus first, so its clock runs while the rest is played.
    const expiredIssueId = await joon.register(101, 3, 200, 50_000, 5_000);
    await joon.launch(101);
    if ((await joon.spin({ issueId: expiredIssueId, bet: 200 })) === undefined) throw new Error('joon could not spin');

    const anaFree = await playFreeSpinsToCompletion(ana, 101, 4, 0.2, 500);
    const minFree = await playFreeSpinsToCompletion(min, 201, 3, 200, 50_000);
    await playPaid(ana, 102, 1, 6);
    await playPaid(ana, 203, 0.5, 3);
    await playPaid(min, 101, 1000, 5);

    // The cancel: the operator applies ben's bet but answers HTTP 500; bet has one attempt, so the dispatcher cancels.
    stack.sandbox.faults.add({
      operatorId: EU.id,
      playerId: ben.playerId,
      command: 'bet',
      httpStatus: 500,
      applyFirst: true,
      times: 1,
    });
    await ben.launch(103);
    if ((await ben.spin({ bet: 1 })) !== undefined) throw new Error('the faulted bet was not refused');
    await playPaid(ben, 103, 0.5, 2);

    // The dead letter: dee's win is refused on all three attempts.
    stack.sandbox.faults.add({ operatorId: KR.id, playerId: dee.playerId, command: 'win', httpStatus: 500, times: 3 });
    const [deadLetteredRoundId] = await playPaid(dee, 102, 400, 1);

    await eventually(async () => {
      const status = await joon.bonusStatus(expiredIssueId);
      if (status.body?.data?.status !== 'expired')
        throw new Error(`bonus ${expiredIssueId} is ${status.body?.data?.status}`);
    }, 15_000);
    await quiesce(stack);

    const roundIds = await roundIdsOfLog(stack);
    const canceled = (await stack.store.readAll({ filter: { streamPrefixes: ['round-'] } })).find(
      (event) => event.type === 'RoundCanceled',
    );
    if (!canceled || deadLetteredRoundId === undefined)
      throw new Error('the scenario has no canceled or dead-lettered round');
    const exports: Record<string, string> = {};
    for (const operator of SCENARIO_OPERATORS)
      exports[operator.id] = await (
        await fetch(`${stack.sandbox.url}/admin/transactions.csv?operatorId=${operator.id}`)
      ).text();
    return {
      dataDir,
      eventStoreFile: join(dataDir, 'reelstream.db'),
      operators: SCENARIO_OPERATORS,
      ledger: stack.sandbox.views.transactions(),
      exports,
      roundIds,
      canceledRoundId: Number(canceled.streamId.slice(6)),
      deadLetteredRoundId,
      expiredIssueId,
      completedIssueIds: [anaFree.issueId, minFree.issueId],
    };
  } finally {
    await stack.stop();
  }
}
