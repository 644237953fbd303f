/**
 * Re-drive of dead-lettered wins (D11): each is sent to the dispatcher as a `redrive` request on
 * `wallet.requests` (keyed by player, so it queues behind that player's requests) and its outcome
 * awaited on `wallet.replies`. The dispatcher delivers the recorded win with its own
 * transactionId, so the operator applies it at most once however often it is re-driven.
 */
import {
  Headers,
  playerKey,
  Topics,
  walletRedriveRequest,
  walletReply,
  type WalletDeadLetter,
  type WalletReply,
} from '@reelstream/contracts';
import type { Clock, EventStore, MessageBus } from '@reelstream/platform-ports';
import { findDeadLetteredWins, type DeadLetterFilter } from './dead-letters.js';

type RedriveOutcome =
  | { kind: 'applied'; reply: WalletReply }
  | { kind: 'failed'; reply: WalletReply }
  | { kind: 'no_answer'; error: string };

interface RedriveProgress {
  /** 1-based position among the re-drives finished so far. */
  done: number;
  total: number;
  letter: WalletDeadLetter;
  outcome: RedriveOutcome;
}

export interface RedriveOptions extends DeadLetterFilter {
  /** Re-drives in flight at once. Default 4. */
  concurrency?: number;
  /** How long to wait for the dispatcher's answer to one re-drive. Default 60 s (three 4 s attempts, queued behind the player's other requests). */
  timeoutMs?: number;
  onStart?: (letters: readonly WalletDeadLetter[]) => void;
  onProgress?: (progress: RedriveProgress) => void;
}

export interface RedriveSummary {
  total: number;
  applied: number;
  failed: number;
  noAnswer: number;
}

/** Why a dead letter cannot be re-driven at all, or undefined when it can: a win whose transactionId names another request is never sent under it. */
export function notRedrivable(letter: WalletDeadLetter): string | undefined {
  if (letter.reason === 'transaction_id_conflict')
    return `its transactionId ${letter.transactionId} names another recorded request: it cannot be sent under it; settle it with the operator by hand`;
  return undefined;
}

export async function redriveDeadLetters(
  deps: { store: EventStore; bus: MessageBus; clock: Clock },
  options: RedriveOptions = {},
): Promise<RedriveSummary> {
  const letters = await findDeadLetteredWins(deps.store, options);
  options.onStart?.(letters);
  const summary: RedriveSummary = { total: letters.length, applied: 0, failed: 0, noAnswer: 0 };
  let next = 0;
  let done = 0;
  const worker = async () => {
    for (;;) {
      const letter = letters[next++];
      if (!letter) return;
      const blocked = notRedrivable(letter);
      const outcome: RedriveOutcome = blocked
        ? {
            kind: 'failed',
            reply: { transactionId: letter.transactionId, statusCode: 'ERR_UNKNOWN', canceled: false, reason: blocked },
          }
        : await redriveLetter(deps, letter, options.timeoutMs ?? 60_000);
      if (outcome.kind === 'applied') summary.applied += 1;
      else if (outcome.kind === 'failed') summary.failed += 1;
      else summary.noAnswer += 1;
      done += 1;
      options.onProgress?.({ done, total: letters.length, letter, outcome });
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return summary;
}

/** Sends one dead letter to the dispatcher as a `redrive` request and awaits its answer (the CLI and the gateway's re-drive endpoint). */
export async function redriveLetter(
  deps: { bus: MessageBus; clock: Clock },
  letter: WalletDeadLetter,
  timeoutMs: number,
): Promise<RedriveOutcome> {
  const command = walletRedriveRequest.parse({
    command: 'redrive',
    transactionId: letter.transactionId,
    operatorId: letter.operatorId,
    playerId: letter.playerId,
    requestedAt: deps.clock.now().toISOString(),
  });
  try {
    const answer = await deps.bus.request(
      Topics.walletRequests,
      { key: playerKey(letter), value: command, headers: { [Headers.messageType]: 'redrive' } },
      { replyTopic: Topics.walletReplies, timeoutMs },
    );
    const reply = walletReply.parse(answer.value);
    return reply.statusCode === 'OK' ? { kind: 'applied', reply } : { kind: 'failed', reply };
  } catch (error) {
    return { kind: 'no_answer', error: error instanceof Error ? error.message : String(error) };
  }
}
