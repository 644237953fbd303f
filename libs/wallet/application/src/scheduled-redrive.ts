/**
 * The automatic re-drive of dead-lettered wins (docs/adr/0016-scheduled-win-redrive.md, D11
 * amended). One dispatcher replica at a time runs it, under a lease: it follows the walletTx
 * streams from the event log, and when a dead-lettered win is due by its operator's `winRedrive`
 * schedule (wallet-domain's `nextRedriveAt`, from the record alone) it publishes the same `redrive`
 * request the CLI and the gateway send, naming the dead letter it re-drives. The dispatcher
 * delivers it keyed by player (one at a time per player) and skips it once the record has moved
 * past that dead letter, so a request sent twice (a lease hand-over, a restart) re-drives once.
 * Nothing of the schedule is kept here but a cache: a new holder rebuilds it from the log.
 */
import {
  Headers,
  parseStreamId,
  playerKey,
  streamPrefix,
  StreamCategories,
  Topics,
  walletRedriveRequest,
} from '@reelstream/contracts';
import type { Clock, EventStore, MessageBus, Position } from '@reelstream/platform-ports';
import { nextRedriveAt, redriveScheduleOver, winRedriveOf } from '@reelstream/wallet-domain';
import { isDeterministicFailure } from './failures.js';
import type { DispatchLog, OperatorLookup } from './ports.js';
import { WalletTxRepository } from './wallet-tx-repository.js';

interface WinRedriveSchedulerDeps {
  store: EventStore;
  bus: MessageBus;
  clock: Clock;
  operators: OperatorLookup;
  log: DispatchLog;
}

/** What the scheduler knows of one dead-lettered win between two looks at its record. */
interface Watched {
  /** Epoch ms of the next look: when it is due. Undefined: only a new event of its stream brings it back. */
  dueMs: number | undefined;
  /** A new event of its stream came since the last look. */
  stale: boolean;
  operatorId: string | undefined;
  /** Still dead-lettered and its schedule is over: waiting for a person. */
  over: boolean;
}

interface RedriveTick {
  /** Re-drive requests published by this tick. */
  sent: number;
  /** Dead-lettered wins whose schedule is over, by operator. */
  scheduleOver: ReadonlyMap<string, number>;
}

const PAGE = 1_000;

export class WinRedriveScheduler {
  private position: Position | undefined;
  private readonly watched = new Map<number, Watched>();
  private readonly records: WalletTxRepository;

  constructor(
    private readonly deps: WinRedriveSchedulerDeps,
    /** False once this replica may no longer be the only scheduler (its lease): nothing is sent then. */
    private readonly held: () => boolean = () => true,
  ) {
    this.records = new WalletTxRepository(deps.store);
  }

  /** Reads the walletTx events since the last tick, then re-drives what is due. */
  async tick(): Promise<RedriveTick> {
    await this.catchUp();
    const now = this.deps.clock.now().getTime();
    let sent = 0;
    for (const [transactionId, watched] of this.watched) {
      const due = watched.dueMs !== undefined && watched.dueMs <= now;
      if (!watched.stale && !due) continue;
      if (!this.held()) break;
      if (await this.look(transactionId, watched, now)) sent += 1;
    }
    const scheduleOver = new Map<string, number>();
    for (const watched of this.watched.values())
      if (watched.over && watched.operatorId !== undefined)
        scheduleOver.set(watched.operatorId, (scheduleOver.get(watched.operatorId) ?? 0) + 1);
    return { sent, scheduleOver };
  }

  private async catchUp(): Promise<void> {
    for (;;) {
      const page = await this.deps.store.readAll({
        maxCount: PAGE,
        filter: { streamPrefixes: [streamPrefix(StreamCategories.walletTx)] },
        ...(this.position === undefined ? {} : { fromPosition: this.position }),
      });
      for (const event of page) {
        const stream = parseStreamId(event.streamId);
        if (stream?.category !== 'walletTx') continue;
        const watched = this.watched.get(stream.transactionId);
        if (watched) watched.stale = true;
        else if (event.type === 'WinDeadLettered')
          this.watched.set(stream.transactionId, { dueMs: undefined, stale: true, operatorId: undefined, over: false });
      }
      const last = page.at(-1);
      if (last) this.position = last.position;
      if (!last || page.length < PAGE) return;
    }
  }

  /** Looks at one win's record: forgets it once delivered, re-drives it when due. True when a re-drive went out. */
  private async look(transactionId: number, watched: Watched, now: number): Promise<boolean> {
    watched.stale = false;
    let state;
    try {
      ({ state } = await this.records.load(transactionId));
    } catch (error) {
      if (!isDeterministicFailure(error)) throw error;
      // A record this code cannot fold is re-driven by nobody automatically: `npm run wallet:redrive` lists it.
      this.watched.delete(transactionId);
      return false;
    }
    const request = state.request;
    if (request?.command !== 'win' || (state.status !== 'dead_lettered' && state.status !== 'pending')) {
      this.watched.delete(transactionId);
      return false;
    }
    watched.operatorId = request.operatorId;
    const operator = this.deps.operators.get(request.operatorId);
    // Under way (a re-drive in progress) or the operator unknown here: the next event of the stream brings it back.
    if (state.status === 'pending' || !operator) {
      watched.dueMs = undefined;
      watched.over = false;
      return false;
    }
    const schedule = winRedriveOf(operator);
    watched.over = redriveScheduleOver(state, schedule);
    const next = nextRedriveAt(state, schedule);
    watched.dueMs = next === undefined ? undefined : Date.parse(next);
    if (watched.dueMs === undefined || watched.dueMs > now) return false;
    const command = walletRedriveRequest.parse({
      command: 'redrive',
      transactionId,
      operatorId: request.operatorId,
      playerId: request.playerId,
      requestedAt: new Date(now).toISOString(),
      deadLetter: state.deadLetters,
    });
    await this.deps.bus.publish(Topics.walletRequests, {
      key: playerKey(command),
      value: command,
      headers: { [Headers.messageType]: 'redrive' },
    });
    // Looked at again when its stream moves (the re-drive's events) or, if the request got lost, a period later.
    watched.dueMs = now + schedule.everySeconds * 1_000;
    this.deps.log.info('dead-lettered win re-driven by its schedule', {
      transactionId,
      operatorId: request.operatorId,
      playerId: request.playerId,
      deadLetter: state.deadLetters,
      firstDeadLetteredAt: state.firstDeadLetteredAt,
    });
    return true;
  }
}

interface RunningRedriveSchedule {
  stop(): Promise<void>;
}

/** Ticks the scheduler every `tickMs` until stopped; a failed tick is logged and the next one tries again. */
export function runWinRedriveSchedule(
  scheduler: WinRedriveScheduler,
  options: {
    tickMs: number;
    log: DispatchLog;
    onTick?: (tick: RedriveTick) => void;
  },
): RunningRedriveSchedule {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      try {
        options.onTick?.(await scheduler.tick());
      } catch (error) {
        options.log.error('scheduled win re-drive tick failed; tried again', { error });
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, options.tickMs);
      });
    }
  })();
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      wake?.();
      await loop;
    },
  };
}
