/** A real embedded event store in a temp dir and the ports the use cases need, for application tests. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { isRefusal, sha256HexOf, type Refusal } from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { systemClock, type Clock } from '@reelstream/platform-ports';
import {
  BonusCommands,
  FreeSpins,
  type CatalogLookup,
  type CommandOrigin,
  type RegisterBonusCallData,
} from '../src/index.js';

const catalog: CatalogLookup = {
  hasProvider: (providerId) => providerId === 1,
  game: (gameId) =>
    gameId === 101 || gameId === 102
      ? {
          gameId,
          providerId: 1,
          supportsFreeSpins: true,
          supportsRegularBonusCall: true,
          betLevelsMinor: [20, 40, 100, 200, 400, 1_000],
        }
      : undefined,
};

export class StoreFixture {
  private opened: { dir: string; store: SqliteEventStore } | undefined;

  /** Opened on first use, so a suite that jest skips (filtered out) leaves no temp dir behind. */
  get store(): SqliteEventStore {
    if (!this.opened) {
      const dir = mkdtempSync(join(tmpdir(), 'bonus-application-'));
      this.opened = { dir, store: SqliteEventStore.open(join(dir, 'events.db')) };
    }
    return this.opened.store;
  }

  commands(
    clock: Clock = systemClock,
    playerOf: (operatorId: string, issueId: number) => Promise<string | undefined> = async () => undefined,
  ): BonusCommands {
    return new BonusCommands({
      store: this.store,
      clock,
      ids: new TimeOrderedIdGenerator(7),
      catalog,
      operators: (operatorId) =>
        operatorId === 'demo' || operatorId === 'rival'
          ? { features: { regularBonusCall: false }, currencies: ['EUR'], limits: {} }
          : undefined,
      playerOf,
    });
  }

  /** Free spins on the fixture's own connection, as the game-server decides them (ADR 0006). */
  freeSpins(clock: Clock = systemClock): FreeSpins {
    return new FreeSpins({ store: this.store, clock, ids: new TimeOrderedIdGenerator(8) });
  }

  async close(): Promise<void> {
    if (!this.opened) return;
    await this.opened.store.close();
    rmSync(this.opened.dir, { recursive: true, force: true });
  }
}

/** Who asks for a command in these tests: a fresh commandId (its own correlationId) of the operator. */
function originOf(operatorId: string): CommandOrigin {
  const id = randomUUID();
  return { commandId: id, correlationId: id, operatorId };
}

/** A command's data with a fresh origin of its operator, as the use cases take them: `use(...command(data))`. */
export function command<Data extends { operatorId: string }>(data: Data): [Data, CommandOrigin] {
  return [data, originOf(data.operatorId)];
}

/** A RegisterBonusCall's data (a free-spin bonus of the demo operator unless overridden) and its origin. */
export function registerCommand(
  platformId: string,
  playerId: string,
  overrides: Partial<RegisterBonusCallData> = {},
): [RegisterBonusCallData, CommandOrigin] {
  const body = {
    operatorId: 'demo',
    platformId,
    playerId,
    providerId: 1,
    gameIds: [101, 102],
    bonusType: 1 as const,
    currency: 'EUR',
    callAmountMinor: 1_000,
    spinAmount: 3,
    baseBetAmountMinor: 20,
    expireAt: new Date(Date.now() + 3_600_000).toISOString(),
    ...overrides,
  };
  return command({ ...body, requestHash: sha256HexOf(JSON.stringify(body)) });
}

/** The result of an answer that must not be a refusal (the test fails with the refusal's message). */
export function accepted<Result>(answer: Result | Refusal): Result {
  if (isRefusal(answer)) throw new Error(`refused: ${answer.code} ${answer.message}`);
  return answer;
}

/** The codes of the refusals among answers, in their order. */
export function refusedCodes(answers: readonly unknown[]): string[] {
  return answers.flatMap((answer) => (isRefusal(answer) ? [answer.code] : []));
}
