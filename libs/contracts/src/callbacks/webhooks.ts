/**
 * Bonus webhooks (docs/adr/0008-bonus-webhooks.md): one signed POST to the operator's
 * `webhookUrl` per state change of a bonus call. The body is derived from one stored event of a
 * `playerBonus` stream, so every delivery of that event (a retry, a relay that ran twice, a
 * re-drive) carries the same bytes and the same `eventId`.
 */
import { formatAmount } from '@reelstream/money';
import * as z from 'zod';
import type { PlayerBonusEvent } from '../events/bonus.js';
import { isoInstant, longId, operatorId, playerId } from '../shared/primitives.js';

const BONUS_WEBHOOK_TYPES = [
  'bonus.registered',
  'bonus.spin_settled',
  'bonus.completed',
  'bonus.expired',
  'bonus.canceled',
] as const;

const units = z.number().min(0);

export const bonusWebhook = z.strictObject({
  /** `bw-` and the id of the stored event it reports: the same on every delivery, the receiver's de-duplication key. */
  eventId: z.string().regex(/^bw-[0-9a-f-]{36}$/),
  type: z.enum(BONUS_WEBHOOK_TYPES),
  /** The bonus call's `issueId` (the `bonusId` of its callbacks). */
  bonusId: longId,
  playerId,
  /** Position of the change in the player's bonus history: increases with every change of one bonus. */
  sequence: z.number().int().min(0),
  occurredAt: isoInstant,
  status: z.enum(['active', 'completed', 'expired', 'canceled']),
  currency: z.string().length(3),
  /** Free spins played so far (a registration: 0). */
  spinsUsed: z.number().int().min(0).optional(),
  /** Total credited under the bonus so far, in currency units. */
  totalWin: units,
  /** `bonus.spin_settled`: the spin's own credited win and its roundId. */
  win: units.optional(),
  roundId: longId.optional(),
  /** `bonus.completed`: why. */
  reason: z.string().optional(),
  /** `bonus.expired` / `bonus.canceled`: free spins not played. */
  spinsForfeited: z.number().int().min(0).optional(),
});
export type BonusWebhook = z.infer<typeof bonusWebhook>;

/** A `bonus.webhooks` message: the body to send and the operator it goes to. Key: `bonusWebhookKey`. */
export const bonusWebhookMessage = z.strictObject({ operatorId, webhook: bonusWebhook });
type BonusWebhookMessage = z.infer<typeof bonusWebhookMessage>;

/** The webhook event id of a stored event: derived, so stable across retries and re-drives. */
export function bonusWebhookEventId(sourceEventId: string): string {
  return `bw-${sourceEventId}`;
}

export interface WebhookSource {
  eventId: string;
  revision: number;
  operatorId: string;
  playerId: string;
  occurredAt: string;
  /** The bonus call's currency (from its registration). */
  currency: string;
}

/** The webhook one stored event becomes, or undefined for an event that is no state change (a spin started). */
export function bonusWebhookOf(event: PlayerBonusEvent, source: WebhookSource): BonusWebhookMessage | undefined {
  const amount = (minor: number) => formatAmount(minor, source.currency);
  const common = {
    eventId: bonusWebhookEventId(source.eventId),
    bonusId: event.data.issueId,
    playerId: source.playerId,
    sequence: source.revision,
    occurredAt: source.occurredAt,
    currency: source.currency,
  };
  const message = (webhook: Omit<BonusWebhook, keyof typeof common>): BonusWebhookMessage =>
    bonusWebhookMessage.parse({ operatorId: source.operatorId, webhook: { ...common, ...webhook } });
  switch (event.type) {
    case 'BonusCallRegistered':
      return message({ type: 'bonus.registered', status: 'active', spinsUsed: 0, totalWin: 0 });
    // A free spin and a Regular Bonus Call's steered spin are told to the operator alike.
    case 'FreeSpinSettled':
    case 'RegularBonusSpinSettled':
      return message({
        type: 'bonus.spin_settled',
        status: 'active',
        spinsUsed: event.data.spinNumber,
        totalWin: amount(event.data.totalWinMinor),
        win: amount(event.data.winMinor),
        roundId: event.data.roundId,
      });
    case 'BonusCallCompleted':
      return message({
        type: 'bonus.completed',
        status: 'completed',
        totalWin: amount(event.data.totalWinMinor),
        reason: event.data.reason,
      });
    case 'BonusCallExpired':
      return message({
        type: 'bonus.expired',
        status: 'expired',
        totalWin: amount(event.data.totalWinMinor),
        spinsForfeited: event.data.spinsForfeited,
      });
    case 'BonusCallCanceled':
      return message({
        type: 'bonus.canceled',
        status: 'canceled',
        totalWin: amount(event.data.totalWinMinor),
        spinsForfeited: event.data.spinsForfeited,
      });
    case 'FreeSpinStarted':
      return undefined;
  }
}
