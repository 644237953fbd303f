/**
 * RegularSpins (ADR 0012): steered spins of a Regular Bonus Call decided on the player's stream from
 * two connections to one file (two game-server processes): concurrent spins never spend the same part
 * of the target, the bonus completes once, and a round decided before answers the same decision.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import type { RegisterBonusCall } from '@reelstream/bonus-domain';
import { parseStoredEvent, playerBonusStream, type PlayerBonusEvent } from '@reelstream/contracts';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { systemClock } from '@reelstream/platform-ports';
import { RegularSpins, type SteeredSpinDecision } from '../src/index.js';
import { playerBonusStreams } from '../src/streams.js';
import { StoreFixture } from './fixtures.js';

const fixture = new StoreFixture();
const opened: SqliteEventStore[] = [];
afterAll(async () => {
  for (const store of opened) await store.close();
  await fixture.close();
});

function process(): RegularSpins {
  const store = SqliteEventStore.open(fixture.store.database.name);
  opened.push(store);
  return new RegularSpins({ store, clock: systemClock });
}

const ISSUE = 7_000_001;
const origin = (commandId: string) => ({ commandId, correlationId: commandId, operatorId: 'demo' });

async function registerRegular(playerId: string, callAmountMinor: number): Promise<void> {
  const command: RegisterBonusCall = {
    type: 'RegisterBonusCall',
    data: {
      issueId: ISSUE,
      platformId: `regular-${playerId}`,
      operatorId: 'demo',
      playerId,
      providerId: 1,
      gameIds: [101],
      bonusType: 2,
      currency: 'EUR',
      callAmountMinor,
      spinAmount: null,
      baseBetAmountMinor: null,
      expireAt: new Date(Date.now() + 3_600_000).toISOString(),
      catalog: {
        providerExists: true,
        games: [
          {
            gameId: 101,
            providerId: 1,
            supportsFreeSpins: true,
            supportsRegularBonusCall: true,
            betLevelsMinor: [20, 100],
          },
        ],
      },
      features: { regularBonusCall: true },
      terms: { currencies: ['EUR'], limits: {} },
    },
    metadata: { now: new Date().toISOString() },
  };
  const decided = await playerBonusStreams.handle(fixture.store, { operatorId: 'demo', playerId }, command, {
    ...origin(`reg-${playerId}`),
    occurredAt: command.metadata.now,
  });
  if ('code' in decided) throw new Error(decided.message);
}

const request = (playerId: string, roundId: number) => ({
  operatorId: 'demo',
  playerId,
  issueId: ISSUE,
  roundId,
  gameId: 101,
  betMinor: 100,
  currency: 'EUR',
});

async function events(playerId: string): Promise<PlayerBonusEvent[]> {
  const stored = await fixture.store.readStream(playerBonusStream('demo', playerId));
  return stored.map((event) => parseStoredEvent(event) as PlayerBonusEvent);
}

describe('RegularSpins: steered spins on the player stream', () => {
  it('concurrent spins from two processes deliver the target exactly once between them, and complete it once', async () => {
    await registerRegular('steer_race', 1_000);
    const processes = [process(), process()];
    let choices = 0;
    const decisions = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        (processes[index % 2] as RegularSpins).settle(
          request('steer_race', 100 + index),
          ({ targetLeftMinor }) => {
            choices++;
            return { reelWinMinor: Math.min(300, targetLeftMinor), topUpMinor: 0, outcome: { round: 100 + index } };
          },
          origin(`steer-${index}`),
        ),
      ),
    );
    const decided = decisions as SteeredSpinDecision[];
    expect(decided.reduce((sum, decision) => sum + decision.winMinor, 0)).toBe(1_000);
    expect(decided.filter((decision) => decision.completed)).toHaveLength(1);
    expect(choices).toBeGreaterThanOrEqual(8);
    const stream = await events('steer_race');
    expect(stream.filter((event) => event.type === 'RegularBonusSpinSettled')).toHaveLength(8);
    expect(stream.filter((event) => event.type === 'BonusCallCompleted')).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ reason: 'target_reached', totalWinMinor: 1_000 }) }),
    ]);
    // Spin numbers follow the order of the stream, whichever process decided each.
    expect(
      stream.flatMap((event) => (event.type === 'RegularBonusSpinSettled' ? [event.data.spinNumber] : [])),
    ).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('a round decided before answers its decision again without choosing (the resolver after a crash)', async () => {
    await registerRegular('steer_again', 1_000);
    const [first, second] = [process(), process()];
    const decided = await first.settle(
      request('steer_again', 900),
      () => ({ reelWinMinor: 250, topUpMinor: 0, outcome: { draws: [1, 2, 3] } }),
      origin('again-1'),
    );
    const again = await second.settle(
      request('steer_again', 900),
      () => {
        throw new Error('a decided round is not chosen again');
      },
      origin('again-2'),
    );
    expect(again).toEqual({ ...decided, replayed: true });
    expect(again).toMatchObject({ winMinor: 250, outcome: { draws: [1, 2, 3] }, completed: false });
    expect((await events('steer_again')).filter((event) => event.type === 'RegularBonusSpinSettled')).toHaveLength(1);
  });
});
