import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  bonusEventMessage,
  bonusWebhookMessage,
  isRefusal,
  Topics,
  toBonusCallStatus,
  walletWinRequest,
  type BonusEventMessage,
  type WalletWinRequest,
} from '@reelstream/contracts';
import { isConsumerLagSource, type Message } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import { SqliteBonusReadModel, rebuildBonusReadModel } from '@reelstream/bonus-adapters';
import { accepted, message, OPERATOR, registration } from './bonus-requests.js';
import { LedgerHarness } from './ledger-harness.js';

const harness = new LedgerHarness();

beforeAll(async () => {
  await harness.open();
  await harness.startLedger();
});
afterAll(() => harness.close());

describe('bonus-ledger over the bus: a registration decided in-process → its status', () => {
  it('answers the status of a registered bonus call by issueId, by platformId and in the player list; the game-server’s active bonus is the same record', async () => {
    const { client, bonus } = harness;
    const body = registration({
      platformId: 'status-1',
      playerId: 'status_player',
      spinAmount: 5,
      callAmountMinor: 2_500,
      baseBetAmountMinor: 40,
    });
    const { issueId, replayed } = accepted(await bonus.register(body));
    expect(replayed).toBe(false);

    const byId = await client.ok('GetBonusCall', { operatorId: OPERATOR, issueId });
    expect(byId).toMatchObject({
      issueId,
      platformId: 'status-1',
      playerId: 'status_player',
      providerId: 1,
      gameIds: [101, 102],
      bonusType: 1,
      currency: 'EUR',
      callAmountMinor: 2_500,
      spinAmount: 5,
      baseBetAmountMinor: 40,
      spinsUsed: 0,
      spinsLeft: 5,
      totalWinMinor: 0,
      winCapLeftMinor: 2_500,
      openRoundId: null,
      status: 'active',
      expireAt: body.expireAt,
    });
    expect(Date.parse(byId.createdAt)).toBeLessThanOrEqual(Date.now());
    expect(toBonusCallStatus(byId)).toMatchObject({
      callAmount: 25,
      baseBetAmount: 0.4,
      totalWin: 0,
      winCapLeft: 25,
      status: 'active',
    });

    expect(await client.ok('GetBonusCall', { operatorId: OPERATOR, platformId: 'status-1' })).toEqual(byId);
    expect(
      await client.ok('ListBonusCalls', {
        operatorId: OPERATOR,
        playerId: 'status_player',
        status: 'active',
        limit: 10,
      }),
    ).toEqual({ items: [byId], nextCursor: null });
    expect(await bonus.active(OPERATOR, 'status_player')).toEqual(byId);
    expect(await client.ask('GetBonusCall', { operatorId: 'regular', issueId })).toMatchObject({
      ok: false,
      error: { code: 'BONUS_NOT_FOUND' },
    });
  });
});

describe('one active bonus call per player, and idempotent registration by platformId (D17)', () => {
  it('50 concurrent registrations for one player: exactly one accepted, 49 refused with ACTIVE_BONUS_EXISTS; the ledger lists the one', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, n) =>
        harness.bonus.register(registration({ platformId: `race-${n}`, playerId: 'race_player' })),
      ),
    );
    const registered = answers.flatMap((answer) => (isRefusal(answer) ? [] : [answer.issueId]));
    const refused = answers.flatMap((answer) => (isRefusal(answer) ? [answer.code] : []));
    expect(registered).toHaveLength(1);
    expect(refused).toEqual(Array.from({ length: 49 }, () => 'ACTIVE_BONUS_EXISTS'));
    const listed = await harness.client.ok('ListBonusCalls', {
      operatorId: OPERATOR,
      playerId: 'race_player',
      limit: 100,
    });
    expect(listed.items.map((item) => item.issueId)).toEqual(registered);
  });

  it('the same platformId sent 20 times concurrently: one issueId for all, one registration; another body is PLATFORM_ID_CONFLICT', async () => {
    const body = registration({ platformId: 'same-20', playerId: 'resend_player' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, async () => accepted(await harness.bonus.register(body))),
    );
    const issueIds = new Set(answers.map((answer) => answer.issueId));
    expect(issueIds.size).toBe(1);
    expect(answers.filter((answer) => !answer.replayed)).toHaveLength(1);
    const [issueId] = [...issueIds];
    const stream = await harness.backends.store.readStream('playerBonus-demo-resend_player');
    expect(
      stream
        .filter((event) => event.type === 'BonusCallRegistered')
        .map((event) => (event.data as { issueId: number }).issueId),
    ).toEqual([issueId]);

    const conflict = await harness.bonus.register(
      registration({ platformId: 'same-20', playerId: 'resend_player', spinAmount: 11 }),
    );
    expect(conflict).toMatchObject({ code: 'PLATFORM_ID_CONFLICT' });
    const elsewhere = await harness.bonus.register(registration({ platformId: 'same-20', playerId: 'other_player' }));
    expect(elsewhere).toMatchObject({ code: 'PLATFORM_ID_CONFLICT' });
  });

  it('a refused registration reserves nothing: the corrected request with the same platformId registers', async () => {
    const refused = await harness.bonus.register(
      registration({ platformId: 'fix-me', playerId: 'fixing_player', gameIds: [101, 201] }),
    );
    expect(refused).toMatchObject({ code: 'GAME_NOT_OF_PROVIDER' });
    const fixed = await harness.bonus.register(registration({ platformId: 'fix-me', playerId: 'fixing_player' }));
    expect(fixed).toEqual({ issueId: expect.any(Number), replayed: false });
  });

  it('catalog and operator rules reach the operator as catalogue codes (D3, D4)', async () => {
    const ask = (input: Parameters<typeof registration>[0]) => harness.bonus.register(registration(input));
    expect(await ask({ platformId: 'r-1', playerId: 'rules_player', providerId: 9 })).toMatchObject({
      code: 'PROVIDER_NOT_FOUND',
    });
    expect(await ask({ platformId: 'r-2', playerId: 'rules_player', gameIds: [101, 999] })).toMatchObject({
      code: 'GAME_NOT_FOUND',
    });
    expect(await ask({ platformId: 'r-3', playerId: 'rules_player', bonusType: 2 })).toMatchObject({
      code: 'BONUS_TYPE_UNAVAILABLE',
    });
    expect(
      await ask({ platformId: 'r-4', playerId: 'rules_player', expireAt: new Date(Date.now() - 1_000).toISOString() }),
    ).toMatchObject({ code: 'EXPIRE_AT_IN_PAST' });
    const regular = await harness.bonus.register({
      ...registration({ platformId: 'r-5', playerId: 'rules_player', bonusType: 2 }),
      operatorId: 'regular',
    });
    expect(isRefusal(regular)).toBe(false);
    const unknownOperator = await harness.bonus.register({
      ...registration({ platformId: 'r-6', playerId: 'rules_player' }),
      operatorId: 'nobody',
    });
    expect(unknownOperator).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('a message that is not a bonus request is answered VALIDATION_FAILED with the fields at fault', async () => {
    const bad = {
      ...message('ListBonusCalls', { operatorId: OPERATOR, playerId: 'bad_player', limit: 10 }),
      data: { operatorId: OPERATOR, playerId: 'bad_player', limit: 0 },
    };
    const reply = await harness.clientBus.request(
      Topics.bonusCommands,
      { key: 'bad_player', value: bad },
      { replyTopic: Topics.bonusReplies, timeoutMs: 10_000 },
    );
    expect(reply.value).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED', details: [{ path: 'data.limit' }] },
    });
  });
});

describe('free spins decided as the game-server decides them: capped wins, completion, the win callback relayed from the store', () => {
  it('plays spins until the win cap is reached; every settle publishes one win with its transactionId; bonus.events carries the lifecycle', async () => {
    const { client, bonus } = harness;
    const wins: WalletWinRequest[] = [];
    const events: BonusEventMessage[] = [];
    const collect = (into: unknown[], parse: (value: unknown) => { playerId: string }) => async (received: Message) => {
      const value = parse(received.value);
      if (value.playerId === 'spin_player') into.push(value);
    };
    const walletConsumer = await harness.clientBus.subscribe({
      groupId: `test-wallet-${Date.now()}`,
      topics: [Topics.walletRequests],
      handler: collect(wins, (value) => walletWinRequest.parse(value)),
    });
    const eventConsumer = await harness.clientBus.subscribe({
      groupId: `test-events-${Date.now()}`,
      topics: [Topics.bonusEvents],
      handler: collect(events, (value) => bonusEventMessage.parse(value)),
    });
    try {
      const { issueId } = accepted(
        await bonus.register(
          registration({ platformId: 'spins-1', playerId: 'spin_player', spinAmount: 5, callAmountMinor: 1_000 }),
        ),
      );
      const spin = async (roundId: number, gameId: number, winMinor: number) => {
        const started = accepted(
          await bonus.startFreeSpin({
            operatorId: OPERATOR,
            playerId: 'spin_player',
            issueId,
            gameId,
            roundId,
          }),
        );
        const settled = accepted(
          await bonus.settleFreeSpin({
            operatorId: OPERATOR,
            playerId: 'spin_player',
            issueId,
            roundId,
            winMinor,
          }),
        );
        return { started, settled };
      };
      const first = await spin(501, 101, 600);
      expect(first.started).toMatchObject({
        spinNumber: 1,
        baseBetAmountMinor: 20,
        winCapLeftMinor: 1_000,
        currency: 'EUR',
        replayed: false,
      });
      expect(first.settled).toMatchObject({ winMinor: 600, totalWinMinor: 600, spinsLeft: 4, completed: false });

      expect(
        await bonus.startFreeSpin({
          operatorId: OPERATOR,
          playerId: 'spin_player',
          issueId,
          gameId: 103,
          roundId: 502,
        }),
      ).toMatchObject({ code: 'GAME_NOT_IN_BONUS' });
      const retried = accepted(
        await bonus.settleFreeSpin({
          operatorId: OPERATOR,
          playerId: 'spin_player',
          issueId,
          roundId: 501,
          winMinor: 600,
        }),
      );
      expect(retried).toMatchObject({ winMinor: 600, replayed: true });

      const second = await spin(503, 102, 0);
      expect(second.settled).toMatchObject({ winMinor: 0, totalWinMinor: 600, spinsLeft: 3, completed: false });
      const third = await spin(504, 101, 900);
      expect(third.settled).toMatchObject({ winMinor: 400, totalWinMinor: 1_000, spinsLeft: 2, completed: true });

      // D20: completed in one game, no spin in any game.
      expect(
        await bonus.startFreeSpin({
          operatorId: OPERATOR,
          playerId: 'spin_player',
          issueId,
          gameId: 102,
          roundId: 505,
        }),
      ).toMatchObject({ code: 'BONUS_NOT_ACTIVE' });
      expect(await client.ask('CancelBonusCall', { operatorId: OPERATOR, issueId })).toMatchObject({
        ok: false,
        error: { code: 'BONUS_ALREADY_COMPLETED' },
      });
      const status = await client.ok('GetBonusCall', { operatorId: OPERATOR, issueId });
      expect(status).toMatchObject({
        status: 'completed',
        spinsUsed: 3,
        spinsLeft: 2,
        totalWinMinor: 1_000,
        winCapLeftMinor: 0,
      });
      expect(status.completedAt).toBeDefined();

      const stream = await harness.backends.store.readStream('playerBonus-demo-spin_player');
      const transactionIds = stream
        .filter((event) => event.type === 'FreeSpinSettled')
        .map((event) => (event.data as { transactionId: number }).transactionId);
      await eventually(() => {
        expect(wins.map((win) => ({ roundId: win.roundId, amountMinor: win.amountMinor }))).toEqual([
          { roundId: 501, amountMinor: 600 },
          { roundId: 503, amountMinor: 0 },
          { roundId: 504, amountMinor: 400 },
        ]);
      });
      expect(wins.map((win) => win.transactionId)).toEqual(transactionIds);
      expect(
        wins.every(
          (win) => win.bonusId === issueId && win.isRoundFinished && win.providerId === 1 && win.currency === 'EUR',
        ),
      ).toBe(true);
      await eventually(() => {
        expect(events.map((event) => event.event.type)).toEqual(stream.map((event) => event.type));
      });
      expect(events.map((event) => event.eventId)).toEqual(stream.map((event) => event.eventId));
    } finally {
      await walletConsumer.stop();
      await eventConsumer.stop();
    }
  });
});

describe('cancel (D14)', () => {
  it('cancels by platformId or issueId, again is success, an unknown one is BONUS_NOT_FOUND, another operator’s too (D18)', async () => {
    const { client, bonus } = harness;
    const { issueId } = accepted(
      await bonus.register(registration({ platformId: 'cancel-1', playerId: 'cancel_player' })),
    );
    expect(await client.ask('CancelBonusCall', { operatorId: 'regular', issueId })).toMatchObject({
      ok: false,
      error: { code: 'BONUS_NOT_FOUND' },
    });
    expect(await client.ok('CancelBonusCall', { operatorId: OPERATOR, platformId: 'cancel-1' })).toEqual({
      issueId,
      alreadyCanceled: false,
    });
    expect(await client.ok('CancelBonusCall', { operatorId: OPERATOR, issueId })).toEqual({
      issueId,
      alreadyCanceled: true,
    });
    expect(await client.ask('CancelBonusCall', { operatorId: OPERATOR, platformId: 'never-registered' })).toMatchObject(
      { ok: false, error: { code: 'BONUS_NOT_FOUND' } },
    );
    const status = await client.ok('GetBonusCall', { operatorId: OPERATOR, issueId });
    expect(status).toMatchObject({ status: 'canceled' });
    expect(toBonusCallStatus(status).canceledAt).toBe(status.canceledAt);
    // The player is free for the next one.
    expect(await bonus.register(registration({ platformId: 'cancel-2', playerId: 'cancel_player' }))).toEqual({
      issueId: expect.any(Number),
      replayed: false,
    });
  });
});

describe('bonus webhooks are relayed for operators with a webhookUrl only (docs/adr/0008-bonus-webhooks.md)', () => {
  it('a registration and a cancel of each of two operators: bonus.webhooks carries the two changes of the one with a webhookUrl', async () => {
    const { client, bonus } = harness;
    const hooks: { operatorId: string; type: string; bonusId: number }[] = [];
    const groupId = `test-webhooks-${Date.now()}`;
    const consumer = await harness.clientBus.subscribe({
      groupId,
      topics: [Topics.bonusWebhooks],
      handler: async (received: Message) => {
        const { operatorId, webhook } = bonusWebhookMessage.parse(received.value);
        if (webhook.playerId === 'hook_player')
          hooks.push({ operatorId, type: webhook.type, bonusId: webhook.bonusId });
      },
    });
    try {
      const both = [];
      for (const operatorId of [OPERATOR, 'hooked']) {
        const { issueId } = accepted(
          await bonus.register({
            ...registration({ platformId: `hook-${operatorId}`, playerId: 'hook_player' }),
            operatorId,
          }),
        );
        await client.ok('CancelBonusCall', { operatorId, issueId });
        both.push(issueId);
      }
      await eventually(() => expect(hooks).toHaveLength(2));
      // The relay publishes in the log's order, so the other operator's webhooks, had there been any, were
      // published before these; on other partitions they are read at their own pace: wait until all are read.
      const bus = harness.clientBus;
      if (!isConsumerLagSource(bus)) throw new Error('the harness bus cannot tell a consumer group its lag');
      await eventually(async () =>
        expect(
          (await bus.consumerLag(groupId, [Topics.bonusWebhooks])).filter((partition) => partition.lag > 0),
        ).toEqual([]),
      );
      expect(hooks).toEqual([
        { operatorId: 'hooked', type: 'bonus.registered', bonusId: both[1] },
        { operatorId: 'hooked', type: 'bonus.canceled', bonusId: both[1] },
      ]);
    } finally {
      await consumer.stop();
    }
  });
});

describe('the read model', () => {
  it('pages lists newest first with a cursor, and refuses a cursor it did not write', async () => {
    const { client, bonus } = harness;
    for (const n of [1, 2, 3]) {
      const { issueId } = accepted(
        await bonus.register(registration({ platformId: `page-${n}`, playerId: 'paging_player' })),
      );
      await client.ok('CancelBonusCall', { operatorId: OPERATOR, issueId });
    }
    const first = await client.ok('ListBonusCalls', {
      operatorId: OPERATOR,
      playerId: 'paging_player',
      status: 'canceled',
      limit: 2,
    });
    expect(first.items.map((item) => item.platformId)).toEqual(['page-3', 'page-2']);
    expect(first.nextCursor).not.toBeNull();
    const second = await client.ok('ListBonusCalls', {
      operatorId: OPERATOR,
      playerId: 'paging_player',
      status: 'canceled',
      limit: 2,
      cursor: first.nextCursor as string,
    });
    expect(second).toMatchObject({ items: [{ platformId: 'page-1' }], nextCursor: null });
    expect(
      await client.ask('ListBonusCalls', { operatorId: OPERATOR, limit: 2, cursor: 'bm90LWEtY3Vyc29y' }),
    ).toMatchObject({ ok: false, error: { code: 'VALIDATION_FAILED' } });
  });

  it('dropped and rebuilt from the log, it equals the live projection', async () => {
    const ledger = harness.ledger;
    if (!ledger) throw new Error('ledger not started');
    await ledger.caughtUp();
    const rebuilt = SqliteBonusReadModel.open(`${harness.dir}/rebuilt-read.db`, {
      comparePositions: (a, b) => harness.backends.store.comparePositions(a, b),
    });
    try {
      const applied = await rebuildBonusReadModel(harness.backends.store, rebuilt);
      expect(applied).toBeGreaterThan(10);
      expect(rebuilt.allRecords()).toEqual(ledger.readModel.allRecords());
      expect(await rebuilt.checkpoint()).toBe(await ledger.readModel.checkpoint());
    } finally {
      rebuilt.close();
    }
  });

  it('serves /healthz and /readyz', async () => {
    const port = harness.ledger?.healthPort;
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });
});
