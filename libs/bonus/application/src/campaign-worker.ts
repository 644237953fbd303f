/**
 * The campaign worker (docs/adr/0010-campaigns.md, docs/adr/0014-fair-campaigns-and-campaign-budget.md):
 * a checkpointed catch-up subscription on the `campaign-` streams, run under a lease in one
 * bonus-ledger replica. Each CampaignStarted joins the running campaigns; the worker takes them in
 * turns, one batch a turn, round robin over the operators (an operator's own campaigns in the order
 * they were started), so one operator's big campaign does not hold another's small one. A batch
 * registers pending players, each with the registration of a single `POST /v1/bonus-call/register`
 * (the RegisterBonusCall command through `register`, the ledger's `BonusCommands.register`) under
 * the platformId `{campaignId}:{playerId}`, and records their outcomes on the campaign stream. The
 * checkpoint stays before the earliest campaign not completed, so a restarted worker reads it (and
 * those after it) again and resumes from their streams: players registered but not yet recorded
 * are registered again, which the platformId guard answers as a replay with the same issueId. No
 * player is ever registered twice.
 */
import { pendingPlayers, registrationRequestHash, type CampaignState } from '@reelstream/bonus-domain';
import {
  campaignPlatformId,
  CAMPAIGN_STREAM_PREFIX,
  isRefusal,
  parseCampaignStream,
  ReelstreamError,
  type CampaignStarted,
  type Refusal,
  type RefusedCampaignPlayer,
  type RegisteredCampaignPlayer,
} from '@reelstream/contracts';
import { startCatchUp, type CatchUpRunner } from '@reelstream/platform-eventsourcing';
import type { CheckpointStore, Clock, EventStore, Position, RecordedEvent } from '@reelstream/platform-ports';
import { campaignStreams, readCampaign } from './campaigns.js';
import type { CommandOrigin } from './command-origin.js';
import { LEDGER_RETRY_DELAY_MS } from './projection-runner.js';
import type { RegisterBonusCallData, Registered } from './registrations.js';

export const CAMPAIGN_WORKER_LEASE = 'bonus-ledger.campaigns';
/** Players registered between two progress records. */
const DEFAULT_BATCH_SIZE = 100;
/** Registrations in flight at once (each on its own player's streams). */
const DEFAULT_CONCURRENCY = 8;

export interface CampaignWorkerOptions {
  store: EventStore;
  checkpoints: CheckpointStore;
  clock: Clock;
  /** One player's registration, decided as a single registration is: the ledger's `BonusCommands.register`. */
  register: (data: RegisterBonusCallData, origin: CommandOrigin) => Promise<Registered | Refusal>;
  /** False once the lease is lost: nothing more is registered or recorded. */
  held?: () => boolean;
  batchSize?: number;
  concurrency?: number;
  retryDelayMs?: number;
  /** After each recorded batch (for the log and the tests). */
  onProgress?: (progress: { streamId: string; registered: number; refused: number; pending: number }) => void;
  onError?: (error: unknown) => void;
}

/** A campaign being worked: its start, and the metadata its registrations carry. */
interface Campaign {
  started: CampaignStarted['data'];
  operatorId: string;
  /** The POST's request id: every registration of the campaign is correlated with it. */
  correlationId: string;
  /** The CampaignStarted event. */
  causationId: string;
}

/** What a turn needs: the worker's options with their defaults, and the check that it may still register. */
interface TurnContext {
  readonly options: CampaignWorkerOptions;
  readonly batchSize: number;
  readonly concurrency: number;
  readonly assertHeld: () => void;
}

/**
 * The RegisterBonusCall of one player, as a single registration of these terms would send it; its
 * commandId names the campaign and the player, so a registration done again appends the same events.
 */
function registrationOf(campaign: Campaign, playerId: string): [RegisterBonusCallData, CommandOrigin] {
  const { started, operatorId } = campaign;
  const platformId = campaignPlatformId(started.campaignId, playerId);
  return [
    {
      ...started.terms,
      operatorId,
      platformId,
      playerId,
      requestHash: registrationRequestHash({ ...started.requested, platformId, playerId }),
    },
    {
      commandId: `campaign:${started.campaignId}:${playerId}`,
      correlationId: campaign.correlationId,
      causationId: campaign.causationId,
      operatorId,
    },
  ];
}

/** Registers a batch of players, `concurrency` at a time; their outcomes in the campaign's order. */
async function registerBatch({ options, concurrency, assertHeld }: TurnContext, campaign: Campaign, players: string[]) {
  const registered: RegisteredCampaignPlayer[] = [];
  const refused: RefusedCampaignPlayer[] = [];
  let next = 0;
  const lane = async () => {
    while (next < players.length) {
      const playerId = players[next++] as string;
      assertHeld();
      const answer = await options.register(...registrationOf(campaign, playerId));
      if (!isRefusal(answer)) registered.push({ playerId, issueId: answer.issueId });
      // A refusal no retry changes is the player's outcome; a retriable one (a concurrent registration) is retried.
      else if (answer.retriable)
        throw new ReelstreamError(answer.code, `registering ${playerId}: ${answer.message}`, { retriable: true });
      else refused.push({ playerId, code: answer.code, message: answer.message.slice(0, 1_000) });
    }
  };
  // Every lane settles before a failure is reported: no registration of this batch is still running when it is retried.
  const lanes = await Promise.allSettled(Array.from({ length: Math.min(concurrency, players.length) }, lane));
  const failed = lanes.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  // In the campaign's order, whichever lane finished first.
  const order = new Map(players.map((player, index) => [player, index]));
  const byOrder = (a: { playerId: string }, b: { playerId: string }) =>
    (order.get(a.playerId) ?? 0) - (order.get(b.playerId) ?? 0);
  return { registered: registered.sort(byOrder), refused: refused.sort(byOrder) };
}

/** One turn: the campaign's next batch registered and recorded; true once the campaign is completed. */
async function runTurn(context: TurnContext, recorded: RecordedEvent): Promise<boolean> {
  const { options, assertHeld } = context;
  const streamId = recorded.streamId;
  const owner = parseCampaignStream(streamId);
  if (owner === undefined) throw new Error(`${streamId} is not a campaign stream`);
  const correlationId =
    typeof recorded.metadata.correlationId === 'string' ? recorded.metadata.correlationId : recorded.eventId;
  assertHeld();
  const loaded = await readCampaign(options.store, streamId);
  const state: CampaignState = loaded.state;
  if (state.started === null) throw new Error(`${streamId} has no CampaignStarted`);
  if (state.completedAt !== null) return true;
  const batch = pendingPlayers(state).slice(0, context.batchSize);
  const outcomes = await registerBatch(
    context,
    { started: state.started, operatorId: owner.operatorId, correlationId, causationId: recorded.eventId },
    batch,
  );
  assertHeld();
  const handled = await campaignStreams.handle(
    options.store,
    owner,
    { type: 'RecordCampaignProgress', data: { ...outcomes, now: options.clock.now().toISOString() } },
    {
      commandId: `campaign-progress:${state.started.campaignId}`,
      correlationId,
      causationId: recorded.eventId,
      operatorId: owner.operatorId,
      occurredAt: options.clock.now().toISOString(),
    },
    { loaded },
  );
  if (isRefusal(handled)) throw new Error(`${streamId}: ${handled.code} ${handled.message}`);
  const pending = pendingPlayers(handled.state).length;
  options.onProgress?.({
    streamId,
    registered: handled.state.registered,
    refused: handled.state.refusals.length,
    pending,
  });
  return handled.state.completedAt !== null;
}

// Long because: the subscription's handler, the turn loop and stop share the running campaigns, the stopping flag
// and the last position seen (closures); each turn's work is runTurn.
export function startCampaignWorker(options: CampaignWorkerOptions): CatchUpRunner {
  const { store } = options;
  let stopping = false;
  const context: TurnContext = {
    options,
    batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    assertHeld: () => {
      // Stopping ends the campaign's run between two registrations (a campaign may take minutes); the next holder
      // resumes it from its stream.
      if (stopping) throw new Error('the campaign worker is stopping: the campaign resumes at the next start');
      if (options.held && !options.held()) throw new Error('the campaign lease is no longer held: nothing registered');
    },
  };

  const turns = new CampaignTurns();
  const retryDelayMs = options.retryDelayMs ?? LEDGER_RETRY_DELAY_MS;
  /** The last position handed to the subscription's handler (or its checkpoint at start). */
  let seen: Position | undefined;
  let working: Promise<void> | undefined;
  const work = async () => {
    for (let turn = turns.next(); turn && !stopping; turn = turns.next()) {
      try {
        if (await runTurn(context, turn.recorded)) turns.completed(turn);
        else turns.yielded(turn);
      } catch (error) {
        options.onError?.(error);
        if (stopping) return;
        turns.yielded(turn);
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs));
      }
    }
  };
  const kick = () => {
    working ??= work().finally(() => {
      working = undefined;
      if (!stopping && turns.size > 0) kick();
    });
  };

  const runner = startCatchUp({
    store,
    // The checkpoint never passes a campaign that is not completed: a restart reads it again.
    checkpoints: {
      load: async (name) => (seen = await options.checkpoints.load(name)),
      store: async (name, position) => {
        const earliest = turns.earliest();
        if (earliest === undefined) await options.checkpoints.store(name, position);
        else if (earliest.before !== undefined) await options.checkpoints.store(name, earliest.before);
      },
    },
    name: CAMPAIGN_WORKER_LEASE,
    filter: { streamPrefixes: [CAMPAIGN_STREAM_PREFIX] },
    // Only the starts: the progress events are this worker's own.
    handleBatch: async (batch) => {
      for (const recorded of batch) {
        if (recorded.type === 'CampaignStarted') {
          const owner = parseCampaignStream(recorded.streamId);
          if (owner) turns.add({ recorded, operatorId: owner.operatorId, before: seen });
        }
        seen = recorded.position;
      }
      kick();
    },
    retryDelayMs,
    onError: (error) => options.onError?.(error),
  });
  return {
    get handledPosition() {
      return runner.handledPosition;
    },
    waitFor: (position) => runner.waitFor(position),
    stop: async () => {
      stopping = true;
      await runner.stop();
      await working;
    },
  };
}

interface CampaignTurn {
  recorded: RecordedEvent;
  operatorId: string;
  /** The position handled before its CampaignStarted: where a restart must resume to read it again. */
  before: Position | undefined;
}

/**
 * The running campaigns and whose turn it is: round robin over the operators, an operator's
 * campaigns in the order they were started. An operator with a new campaign joins the rotation at
 * its end.
 */
class CampaignTurns {
  private readonly byOperator = new Map<string, CampaignTurn[]>();
  /** Operators with a running campaign, the next turn's first. */
  private readonly rotation: string[] = [];
  /** Every running campaign in the order they were started (for the checkpoint). */
  private readonly started: CampaignTurn[] = [];

  get size(): number {
    return this.started.length;
  }

  add(turn: CampaignTurn): void {
    if (this.started.some((each) => each.recorded.streamId === turn.recorded.streamId)) return;
    this.started.push(turn);
    const own = this.byOperator.get(turn.operatorId);
    if (own) own.push(turn);
    else {
      this.byOperator.set(turn.operatorId, [turn]);
      this.rotation.push(turn.operatorId);
    }
  }

  /** The campaign whose turn it is: the oldest of the operator first in the rotation. */
  next(): CampaignTurn | undefined {
    const operatorId = this.rotation[0];
    return operatorId === undefined ? undefined : this.byOperator.get(operatorId)?.[0];
  }

  /** Its turn is over: its operator goes to the end of the rotation. */
  yielded(turn: CampaignTurn): void {
    this.rotate(turn.operatorId);
  }

  completed(turn: CampaignTurn): void {
    const index = this.started.indexOf(turn);
    if (index >= 0) this.started.splice(index, 1);
    const own = this.byOperator.get(turn.operatorId) ?? [];
    const at = own.indexOf(turn);
    if (at >= 0) own.splice(at, 1);
    if (own.length === 0) {
      this.byOperator.delete(turn.operatorId);
      const position = this.rotation.indexOf(turn.operatorId);
      if (position >= 0) this.rotation.splice(position, 1);
    } else this.rotate(turn.operatorId);
  }

  /** The running campaign started first. */
  earliest(): CampaignTurn | undefined {
    return this.started[0];
  }

  private rotate(operatorId: string): void {
    const position = this.rotation.indexOf(operatorId);
    if (position < 0) return;
    this.rotation.splice(position, 1);
    this.rotation.push(operatorId);
  }
}
