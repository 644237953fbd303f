/**
 * Players of one operator spinning as the game-server plays them: a bet, and after an OK its win,
 * each sent with `bus.request` and the game-server's wallet time-out (no reply in time is what the
 * player sees as 503 WALLET_UNAVAILABLE). Each player starts a spin every `periodMs` (or as soon as
 * the last one ends, if it took longer), so a failing wallet that answers fast does not make its
 * players spin faster than in the baseline. Every request is timed.
 */
import { playerKey, Topics, walletReply, type WalletReply, type WalletRequest } from '@reelstream/contracts';
import { isRequestTimeout, type EventStore, type MessageBus } from '@reelstream/platform-ports';
import { recordStakeSource, recordWinSource } from '@reelstream/testing';

/** The game-server's default WALLET_TIMEOUT_MS: a bet not answered within it is a 503 for the player. */
const GAME_SERVER_WALLET_TIMEOUT_MS = 5_000;

export interface Sample {
  operatorId: string;
  playerId: string;
  phase: string;
  request: WalletRequest;
  ms: number;
  /** undefined: no reply within the game-server's time-out (a 503). */
  reply: WalletReply | undefined;
}

export class Players {
  readonly samples: Sample[] = [];
  phase = 'baseline';
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(
    private readonly bus: MessageBus,
    /** Where each win's source round is recorded first: the dispatcher sends no win without one. */
    private readonly store: EventStore,
    readonly operatorId: string,
    private readonly playerIds: readonly string[],
    private readonly nextId: () => number,
    private readonly periodMs: number,
  ) {}

  start(): void {
    this.running = true;
    this.loops = this.playerIds.map((playerId, index) => this.play(playerId, index));
  }

  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
  }

  /** One request as the game-server sends it; resolves with its sample. */
  async send(request: WalletRequest): Promise<Sample> {
    const phase = this.phase;
    const started = performance.now();
    let reply: WalletReply | undefined;
    try {
      const answer = await this.bus.request(
        Topics.walletRequests,
        { key: playerKey(request), value: request },
        { replyTopic: Topics.walletReplies, timeoutMs: GAME_SERVER_WALLET_TIMEOUT_MS },
      );
      reply = walletReply.parse(answer.value);
    } catch (error) {
      if (!isRequestTimeout(error)) throw error;
    }
    const sample = {
      operatorId: this.operatorId,
      playerId: request.playerId,
      phase,
      request,
      ms: performance.now() - started,
      reply,
    };
    this.samples.push(sample);
    return sample;
  }

  private async play(playerId: string, index: number): Promise<void> {
    await sleep((index * this.periodMs) / this.playerIds.length);
    const base = {
      operatorId: this.operatorId,
      playerId,
      providerId: 1,
      gameId: 10,
      currency: 'EUR',
      bonusId: 0,
    } as const;
    while (this.running) {
      const spinStarted = performance.now();
      const roundId = this.nextId();
      const betTransactionId = this.nextId();
      const bet = await this.send(
        await recordStakeSource(this.store, {
          ...base,
          command: 'bet',
          transactionId: betTransactionId,
          roundId,
          requestedAt: new Date().toISOString(),
          amountMinor: 100,
          isBonusBusy: false,
        }),
      );
      if (bet.reply?.statusCode === 'OK') {
        const win = {
          ...base,
          command: 'win' as const,
          transactionId: this.nextId(),
          roundId,
          requestedAt: new Date().toISOString(),
          amountMinor: 150,
          isRoundFinished: true,
        };
        await this.send(await recordWinSource(this.store, win));
      }
      await sleep(Math.max(0, spinStarted + this.periodMs - performance.now()));
    }
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}
