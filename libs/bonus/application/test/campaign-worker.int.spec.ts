/**
 * The campaign worker (docs/adr/0010-campaigns.md) on a real embedded event store: it registers each
 * player with the ledger's own registration (`BonusCommands.register`), refuses a player who holds an
 * active bonus with the code a single registration gets, a worker stopped mid-batch — players
 * registered but their batch not recorded — is resumed by another without registering anyone twice,
 * and one operator's big campaign does not hold another operator's small one.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { campaignRequestHash } from '@reelstream/bonus-domain';
import {
  campaignPlatformId,
  parseStoredEvent,
  playerBonusStream,
  type PlayerBonusEvent,
  type StartCampaignRequest,
} from '@reelstream/contracts';
import { SqliteCheckpointStore } from '@reelstream/platform-eventstore-sqlite';
import { systemClock } from '@reelstream/platform-ports';
import { campaignProgressOf, loadCampaign, startCampaign, startCampaignWorker } from '../src/index.js';
import { registerCommand, StoreFixture } from './fixtures.js';

const fixture = new StoreFixture();
afterAll(() => fixture.close());

const expireAt = new Date(Date.now() + 3_600_000);

function campaignOf(campaignId: string, players: string[]): StartCampaignRequest {
  return {
    campaignId,
    players,
    terms: {
      providerId: 1,
      gameIds: [101, 102],
      bonusType: 1,
      callAmount: 10,
      expireAt: expireAt.toISOString().slice(0, 19).replace('T', ' '),
      metaData: { spinAmount: 3, baseBetAmount: 0.2 },
    },
  };
}

async function started(request: StartCampaignRequest, operatorId = 'demo'): Promise<void> {
  const answer = await startCampaign(fixture.store, {
    request,
    terms: {
      providerId: 1,
      gameIds: [101, 102],
      bonusType: 1,
      currency: 'EUR',
      callAmountMinor: 1_000,
      spinAmount: 3,
      baseBetAmountMinor: 20,
      expireAt: expireAt.toISOString(),
    },
    now: new Date().toISOString(),
    origin: {
      commandId: `start-${request.campaignId}`,
      correlationId: `start-${request.campaignId}`,
      operatorId,
    },
  });
  expect(answer).toEqual({ replayed: false });
}

async function until(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const completed =
  (campaignId: string, operatorId = 'demo') =>
  async () =>
    (await loadCampaign(fixture.store, operatorId, campaignId))?.completedAt != null;

/** Every BonusCallRegistered of the player, with its platformId. */
async function registrations(playerId: string): Promise<{ issueId: number; platformId: string }[]> {
  const stored = await fixture.store.readStream(playerBonusStream('demo', playerId));
  return stored
    .map((event) => parseStoredEvent(event) as PlayerBonusEvent)
    .flatMap((event) =>
      event.type === 'BonusCallRegistered' ? [{ issueId: event.data.issueId, platformId: event.data.platformId }] : [],
    );
}

function worker(
  register: (
    ...registration: Parameters<ReturnType<StoreFixture['commands']>['register']>
  ) => ReturnType<ReturnType<StoreFixture['commands']>['register']>,
) {
  return startCampaignWorker({
    store: fixture.store,
    checkpoints: new SqliteCheckpointStore(fixture.store.database),
    clock: systemClock,
    register,
    batchSize: 7,
    concurrency: 3,
    retryDelayMs: 20,
    onError: () => undefined,
  });
}

describe('the campaign worker', () => {
  it('registers every player once, refusing the holders of an active bonus with ACTIVE_BONUS_EXISTS', async () => {
    const commands = fixture.commands();
    const players = Array.from({ length: 30 }, (_, index) => `cw_${index}`);
    const holders = ['cw_4', 'cw_17', 'cw_29'];
    for (const holder of holders) {
      const answer = await commands.register(...registerCommand(`own-${holder}`, holder));
      expect(answer).toMatchObject({ replayed: false });
    }
    const request = campaignOf('spring', players);
    await started(request);
    const runner = worker((...registration) => commands.register(...registration));
    try {
      await until(completed('spring'), 'the campaign to complete');
    } finally {
      await runner.stop();
    }

    const state = await loadCampaign(fixture.store, 'demo', 'spring');
    if (state === undefined) throw new Error('no campaign');
    expect(campaignProgressOf(state, { offset: 0, limit: 100 })).toMatchObject({
      state: 'completed',
      total: 30,
      registered: 27,
      refused: 3,
      pending: 0,
      nextCursor: null,
    });
    // Each with the code and message a single registration of the same player gets.
    expect(state.refusals.map((refused) => refused.playerId)).toEqual(holders);
    for (const refused of state.refusals) {
      const single = await commands.register(...registerCommand(`single-${refused.playerId}`, refused.playerId));
      expect(single).toMatchObject({ type: 'Refusal', code: refused.code, message: refused.message });
      expect(refused.code).toBe('ACTIVE_BONUS_EXISTS');
    }
    for (const player of players.filter((player) => !holders.includes(player))) {
      const [registration, ...more] = await registrations(player);
      expect(more).toEqual([]);
      expect(registration).toEqual({
        issueId: (state.outcomes.get(player) as { issueId: number }).issueId,
        platformId: campaignPlatformId('spring', player),
      });
    }
    // Paged refusals.
    expect(campaignProgressOf(state, { offset: 0, limit: 2 })).toMatchObject({
      nextCursor: '2',
      refusals: [{ playerId: 'cw_4' }, { playerId: 'cw_17' }],
    });
    expect(campaignProgressOf(state, { offset: 2, limit: 2 })).toMatchObject({
      nextCursor: null,
      refusals: [{ playerId: 'cw_29' }],
    });
    expect(campaignRequestHash(request)).toBe(state.started?.requestHash);
  });

  it('resumes a campaign stopped mid-batch without registering anyone twice', async () => {
    const commands = fixture.commands();
    const players = Array.from({ length: 25 }, (_, index) => `rs_${index}`);
    await started(campaignOf('restart', players));

    // The first worker "dies" after its 10th registration: the second batch (players 8–14) is
    // partly registered, never recorded.
    let registeredByFirst = 0;
    let dead = false;
    const first = worker(async (...registration) => {
      if (dead) throw new Error('killed');
      const answer = await commands.register(...registration);
      if (++registeredByFirst === 10) dead = true;
      return answer;
    });
    await until(async () => dead, 'the first worker to die');
    await first.stop();
    const halfway = await loadCampaign(fixture.store, 'demo', 'restart');
    expect(halfway && campaignProgressOf(halfway, { offset: 0, limit: 10 })).toMatchObject({
      state: 'running',
      registered: 7,
      pending: 18,
    });
    // Registered but not recorded: the platformId guard holds them.
    const unrecorded = players.slice(7).filter((player) => !halfway?.outcomes.has(player));
    const alreadyIn = (await Promise.all(unrecorded.map(registrations))).filter((found) => found.length > 0);
    expect(alreadyIn.length).toBeGreaterThanOrEqual(1);

    const second = worker((...registration) => commands.register(...registration));
    try {
      await until(completed('restart'), 'the resumed campaign to complete');
    } finally {
      await second.stop();
    }
    const state = await loadCampaign(fixture.store, 'demo', 'restart');
    expect(state?.registered).toBe(25);
    for (const player of players) {
      const found = await registrations(player);
      expect(found).toHaveLength(1);
      expect(found[0]?.issueId).toBe((state?.outcomes.get(player) as { issueId: number }).issueId);
    }
  });

  it("resumes two operators' campaigns worked in turns, stopped mid-way, without registering anyone twice", async () => {
    const commands = fixture.commands();
    const ours = Array.from({ length: 40 }, (_, index) => `tw_${index}`);
    const theirs = Array.from({ length: 30 }, (_, index) => `tr_${index}`);
    await started(campaignOf('turns', ours));
    await started(campaignOf('turns', theirs), 'rival');
    // The first worker stops once both campaigns had a turn recorded: neither is completed.
    const first = worker((...registration) => commands.register(...registration));
    await until(async () => {
      const [a, b] = await Promise.all([
        loadCampaign(fixture.store, 'demo', 'turns'),
        loadCampaign(fixture.store, 'rival', 'turns'),
      ]);
      return (a?.registered ?? 0) > 0 && (b?.registered ?? 0) > 0;
    }, 'both campaigns to have had a turn');
    await first.stop();
    const halfway = await loadCampaign(fixture.store, 'demo', 'turns');
    expect(halfway?.completedAt).toBeNull();

    const second = worker((...registration) => commands.register(...registration));
    try {
      await until(completed('turns'), 'our campaign to complete');
      await until(completed('turns', 'rival'), 'their campaign to complete');
    } finally {
      await second.stop();
    }
    for (const [operatorId, players] of [
      ['demo', ours],
      ['rival', theirs],
    ] as const) {
      const state = await loadCampaign(fixture.store, operatorId, 'turns');
      expect(state?.registered).toBe(players.length);
      for (const player of players) {
        const found = (await fixture.store.readStream(playerBonusStream(operatorId, player)))
          .map((event) => parseStoredEvent(event) as PlayerBonusEvent)
          .filter((event) => event.type === 'BonusCallRegistered');
        expect(found).toHaveLength(1);
      }
    }
  });

  it("registers another operator's small campaign while one operator's big campaign is still running", async () => {
    const commands = fixture.commands();
    await started(
      campaignOf(
        'big',
        Array.from({ length: 2_000 }, (_, index) => `big_${index}`),
      ),
    );
    // The production batch size and concurrency.
    const runner = startCampaignWorker({
      store: fixture.store,
      checkpoints: new SqliteCheckpointStore(fixture.store.database),
      clock: systemClock,
      register: (...registration) => commands.register(...registration),
      retryDelayMs: 20,
      onError: () => undefined,
    });
    try {
      await until(
        async () => ((await loadCampaign(fixture.store, 'demo', 'big'))?.registered ?? 0) > 0,
        'the big campaign to be under way',
      );
      const startedAt = performance.now();
      await started(campaignOf('small', ['sm_0', 'sm_1', 'sm_2']), 'rival');
      await until(completed('small', 'rival'), 'the small campaign to complete', 120_000);
      const waitedMs = performance.now() - startedAt;
      const big = await loadCampaign(fixture.store, 'demo', 'big');
      const pending = big ? campaignProgressOf(big, { offset: 0, limit: 1 }).pending : 0;
      process.stdout.write(
        `small campaign completed ${waitedMs.toFixed(0)} ms after its start; the big one had ${pending} of 2000 players pending\n`,
      );
      // It had its turn after one batch of the big one, not after the whole of it.
      expect(pending).toBeGreaterThan(0);
      expect(waitedMs).toBeLessThan(10_000);
      const small = await loadCampaign(fixture.store, 'rival', 'small');
      expect(small?.registered).toBe(3);
    } finally {
      await runner.stop();
    }
  }, 180_000);
});
