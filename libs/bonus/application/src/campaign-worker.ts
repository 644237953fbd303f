/**
 * The campaign worker (docs/adr/0010-campaigns.md): a checkpointed catch-up subscription on the
 * `campaign-` streams, run under a lease in one bonus-ledger replica. For each CampaignStarted it
 * registers the pending players, a batch at a time, each with the registration of a single
 * `POST /v1/bonus-call/register` (the RegisterBonusCall command through `register`, the ledger's
 * `BonusCommands.register`) under the platformId `{campaignId}:{playerId}`, and records the batch's
 * outcomes on the campaign stream before the next one. The checkpoint moves past a campaign only
 * once it is completed, so a restarted worker reads it again and resumes from its stream: players
 * registered but not yet recorded are registered again, which the platformId guard answers as a
 * replay with the same issueId. No player is ever registered twice.
 */
import { campaignDecider, pendingPlayers, registrationRequestHash, type CampaignState } from '@reelstream/bonus-domain';
import {
  bonusRequestMessage,
  campaignPlatformId,
  CAMPAIGN_STREAM_PREFIX,
  isRefusal,
  parseCampaignStream,
  type BonusReply,
  type CampaignStarted,
  type RefusedCampaignPlayer,
  type RegisterBonusCallCommand,
  type RegisteredCampaignPlayer,
} from '@reelstream/contracts';
import { handleCommand, startCatchUp, type CatchUpRunner } from '@reelstream/eventsourcing';
import type { CheckpointStore, Clock, EventStore, RecordedEvent } from '@reelstream/ports';
import { campaignEvents, readCampaign } from './campaigns.js';
import { LEDGER_RETRY_DELAY_MS } from './projection-runner.js';

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
  register: (command: RegisterBonusCallCommand) => Promise<BonusReply<'RegisterBonusCall'>>;
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

/** A refusal no retry changes is the player's outcome; SERVICE_UNAVAILABLE (a concurrent registration) is retried. */
const TRANSIENT_CODES: ReadonlySet<string> = new Set(['SERVICE_UNAVAILABLE']);

export function startCampaignWorker(options: CampaignWorkerOptions): CatchUpRunner {
  const { store } = options;
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
  let stopping = false;
  const assertHeld = () => {
    // Stopping ends the campaign's run between two registrations (a campaign may take minutes); the next holder
    // resumes it from its stream.
    if (stopping) throw new Error('the campaign worker is stopping: the campaign resumes at the next start');
    if (options.held && !options.held()) throw new Error('the campaign lease is no longer held: nothing registered');
  };

  /** The RegisterBonusCall of one player: the command a single registration of these terms would send. */
  const commandOf = (campaign: Campaign, playerId: string) => {
    const { started, operatorId } = campaign;
    const platformId = campaignPlatformId(started.campaignId, playerId);
    return bonusRequestMessage.parse({
      type: 'RegisterBonusCall',
      version: 1,
      data: {
        ...started.terms,
        operatorId,
        platformId,
        playerId,
        requestHash: registrationRequestHash({ ...started.requested, platformId, playerId }),
      },
      metadata: {
        commandId: `campaign:${started.campaignId}:${playerId}`,
        correlationId: campaign.correlationId,
        causationId: campaign.causationId,
        operatorId,
        issuedAt: options.clock.now().toISOString(),
      },
    }) as RegisterBonusCallCommand;
  };

  const registerBatch = async (campaign: Campaign, players: string[]) => {
    const registered: RegisteredCampaignPlayer[] = [];
    const refused: RefusedCampaignPlayer[] = [];
    let next = 0;
    const lane = async () => {
      while (next < players.length) {
        const playerId = players[next++] as string;
        assertHeld();
        const reply = await options.register(commandOf(campaign, playerId));
        if (reply.ok) registered.push({ playerId, issueId: reply.result.issueId });
        else if (TRANSIENT_CODES.has(reply.error.code))
          throw new Error(`registering ${playerId}: ${reply.error.code} ${reply.error.message}`);
        else refused.push({ playerId, code: reply.error.code, message: reply.error.message.slice(0, 1_000) });
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
  };

  /** Works the campaign to completion from what its stream has recorded. */
  const runCampaign = async (recorded: RecordedEvent) => {
    const streamId = recorded.streamId;
    const owner = parseCampaignStream(streamId);
    if (owner === undefined) throw new Error(`${streamId} is not a campaign stream`);
    const correlationId =
      typeof recorded.metadata.correlationId === 'string' ? recorded.metadata.correlationId : recorded.eventId;
    for (;;) {
      assertHeld();
      const loaded = await readCampaign(store, streamId);
      const state: CampaignState = loaded.state;
      if (state.started === null) throw new Error(`${streamId} has no CampaignStarted`);
      if (state.completedAt !== null) return;
      const batch = pendingPlayers(state).slice(0, batchSize);
      const outcomes = await registerBatch(
        { started: state.started, operatorId: owner.operatorId, correlationId, causationId: recorded.eventId },
        batch,
      );
      assertHeld();
      const handled = await handleCommand(
        store,
        streamId,
        campaignDecider,
        { type: 'RecordCampaignProgress', data: { ...outcomes, now: options.clock.now().toISOString() } },
        {
          context: {
            commandId: `campaign-progress:${state.started.campaignId}`,
            correlationId,
            causationId: recorded.eventId,
            operatorId: owner.operatorId,
            occurredAt: options.clock.now().toISOString(),
          },
          ...campaignEvents,
          loaded,
        },
      );
      if (isRefusal(handled)) throw new Error(`${streamId}: ${handled.code} ${handled.message}`);
      options.onProgress?.({
        streamId,
        registered: handled.state.registered,
        refused: handled.state.refusals.length,
        pending: pendingPlayers(handled.state).length,
      });
    }
  };

  const runner = startCatchUp({
    store,
    checkpoints: options.checkpoints,
    name: CAMPAIGN_WORKER_LEASE,
    filter: { streamPrefixes: [CAMPAIGN_STREAM_PREFIX] },
    // Only the starts: the progress events are this worker's own.
    handleBatch: async (batch) => {
      for (const recorded of batch) if (recorded.type === 'CampaignStarted') await runCampaign(recorded);
    },
    retryDelayMs: options.retryDelayMs ?? LEDGER_RETRY_DELAY_MS,
    onError: (error) => options.onError?.(error),
  });
  return {
    get handledPosition() {
      return runner.handledPosition;
    },
    waitFor: (position) => runner.waitFor(position),
    stop: () => {
      stopping = true;
      return runner.stop();
    },
  };
}
