/**
 * A small log of campaigns and bonus players, written through the real event store with every
 * event checked against its contract: campaigns (one player refused, one registered call expired
 * unplayed, one canceled after a spin, one completed), a player with two bonuses, and the players'
 * paid rounds before, inside and after their bonuses' windows (one bet timed out and canceled).
 * It returns what it wrote as plain facts, from which the tests compute the campaigns and
 * bonus-return reports on their own (not with the folds).
 */
import { randomUUID } from 'node:crypto';
import {
  campaignEventToAppend,
  campaignStream,
  playerBonusStream,
  roundStream,
  walletTxStream,
  type CampaignEvent,
  type DomainEvent,
} from '@reelstream/contracts';
import type { EventStore } from '@reelstream/platform-ports';
import type { SyntheticOperator } from './synthetic-log.js';
import { requestBase, Writer } from './synthetic-writer.js';

export const CAMPAIGN_OPERATORS: readonly SyntheticOperator[] = [
  { id: 'casino-eu', currency: 'EUR', timeZone: 'Europe/Berlin' },
  { id: 'casino-seoul', currency: 'KRW', timeZone: 'Asia/Seoul' },
];

interface WrittenCampaign {
  operatorId: string;
  campaignId: string;
  currency: string;
  players: string[];
  refused: { playerId: string; code: 'ACTIVE_BONUS_EXISTS' | 'CURRENCY_NOT_ALLOWED' }[];
}

interface WrittenBonus {
  operatorId: string;
  playerId: string;
  issueId: number;
  campaignId: string | undefined;
  currency: string;
  registeredAt: string;
  /** Each spin's credited win, in order. */
  spinWins: number[];
  end: 'completed' | 'expired' | 'canceled' | undefined;
}

interface WrittenPaidRound {
  operatorId: string;
  playerId: string;
  currency: string;
  betMinor: number;
  /** 0: no win transaction. */
  winMinor: number;
  /** When the wallet accepted the bet (its WalletSucceeded), or undefined when it timed out and was canceled. */
  betPaidAt: string | undefined;
  winPaidAt: string | undefined;
}

export interface SyntheticCampaignLog {
  campaigns: WrittenCampaign[];
  bonuses: WrittenBonus[];
  paidRounds: WrittenPaidRound[];
  /** The last instant the log holds. */
  lastAt: string;
}

const iso = (ms: number) => new Date(ms).toISOString();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

class CampaignWriter {
  private nextId = 5_000;
  private lastMs = 0;
  readonly written: SyntheticCampaignLog = { campaigns: [], bonuses: [], paidRounds: [], lastAt: '' };
  private readonly writer: Writer;

  constructor(private readonly store: EventStore) {
    this.writer = new Writer(store);
  }

  id(): number {
    return this.nextId++;
  }

  private seen(ms: number): string {
    this.lastMs = Math.max(this.lastMs, ms);
    this.written.lastAt = iso(this.lastMs);
    return iso(ms);
  }

  private async append(stream: string, operatorId: string, events: DomainEvent[], atMs: number): Promise<void> {
    await this.writer.append(stream, operatorId, events, this.seen(atMs));
  }

  private async appendCampaign(operator: SyntheticOperator, campaignId: string, event: CampaignEvent, atMs: number) {
    const at = this.seen(atMs);
    const context = { correlationId: randomUUID(), causationId: randomUUID(), operatorId: operator.id, occurredAt: at };
    await this.store.append(campaignStream(operator.id, campaignId), [campaignEventToAppend(event, context)], {
      expectedRevision: 'any',
    });
  }

  /** CampaignStarted, each registration's bonus call then the progress event, the refusals. */
  async campaign(
    operator: SyntheticOperator,
    campaignId: string,
    players: string[],
    refused: WrittenCampaign['refused'],
    startMs: number,
  ): Promise<Map<string, number>> {
    const terms = {
      providerId: 1,
      gameIds: [101],
      bonusType: 1 as const,
      currency: operator.currency,
      callAmountMinor: 10_000,
      spinAmount: 3,
      baseBetAmountMinor: 100,
      expireAt: iso(startMs + 3 * DAY),
    };
    await this.appendCampaign(
      operator,
      campaignId,
      {
        type: 'CampaignStarted',
        data: {
          campaignId,
          requestHash: 'a'.repeat(64),
          requested: {
            providerId: 1,
            gameIds: [101],
            bonusType: 1,
            callAmount: 100,
            expireAt: '2030-01-01 00:00:00',
            metaData: { spinAmount: 3, baseBetAmount: 1 },
          },
          terms,
          players,
          startedAt: iso(startMs),
        },
      },
      startMs,
    );
    this.written.campaigns.push({ operatorId: operator.id, campaignId, currency: operator.currency, players, refused });
    const issues = new Map<string, number>();
    const refusedIds = new Set(refused.map((player) => player.playerId));
    let at = startMs + 1_000;
    for (const playerId of players.filter((player) => !refusedIds.has(player))) {
      const issueId = await this.bonus(operator, playerId, `${campaignId}:${playerId}`, campaignId, (at += 1_000));
      issues.set(playerId, issueId);
    }
    await this.appendCampaign(
      operator,
      campaignId,
      {
        type: 'CampaignPlayersRegistered',
        data: { players: [...issues.entries()].map(([playerId, issueId]) => ({ playerId, issueId })) },
      },
      (at += 1_000),
    );
    if (refused.length > 0)
      await this.appendCampaign(
        operator,
        campaignId,
        {
          type: 'CampaignPlayersRefused',
          data: { players: refused.map((player) => ({ ...player, message: 'refused' })) },
        },
        (at += 1_000),
      );
    return issues;
  }

  /** A 3-spin Free Spin Bonus registered for the player. */
  async bonus(
    operator: SyntheticOperator,
    playerId: string,
    platformId: string,
    campaignId: string | undefined,
    atMs: number,
  ): Promise<number> {
    const issueId = this.id();
    const registeredAt = iso(atMs);
    await this.append(
      playerBonusStream(operator.id, playerId),
      operator.id,
      [
        {
          type: 'BonusCallRegistered',
          data: {
            issueId,
            platformId,
            operatorId: operator.id,
            playerId,
            providerId: 1,
            gameIds: [101],
            bonusType: 1,
            currency: operator.currency,
            callAmountMinor: 10_000,
            spinAmount: 3,
            baseBetAmountMinor: 100,
            expireAt: iso(atMs + 3 * DAY),
            registeredAt,
          },
        },
      ],
      atMs,
    );
    this.written.bonuses.push({
      operatorId: operator.id,
      playerId,
      issueId,
      campaignId,
      currency: operator.currency,
      registeredAt,
      spinWins: [],
      end: undefined,
    });
    return issueId;
  }

  private bonusOf(issueId: number): WrittenBonus {
    const bonus = this.written.bonuses.find((candidate) => candidate.issueId === issueId);
    if (!bonus) throw new Error(`no bonus ${issueId}`);
    return bonus;
  }

  /** One free spin: started, its free round, settled with `winMinor`, the win delivered. */
  async freeSpin(operator: SyntheticOperator, issueId: number, winMinor: number, atMs: number): Promise<void> {
    const bonus = this.bonusOf(issueId);
    const stream = playerBonusStream(operator.id, bonus.playerId);
    const spinNumber = bonus.spinWins.length + 1;
    const total = bonus.spinWins.reduce((sum, win) => sum + win, 0);
    const roundId = this.id();
    await this.append(
      stream,
      operator.id,
      [
        {
          type: 'FreeSpinStarted',
          data: {
            issueId,
            roundId,
            gameId: 101,
            spinNumber,
            baseBetAmountMinor: 100,
            winCapLeftMinor: 10_000 - total,
            startedAt: iso(atMs),
          },
        },
      ],
      atMs,
    );
    await this.append(
      roundStream(roundId),
      operator.id,
      [this.roundStarted(operator, bonus.playerId, roundId, atMs, issueId)],
      atMs,
    );
    await this.append(
      roundStream(roundId),
      operator.id,
      [this.roundSettled(roundId, winMinor, atMs + 100)],
      atMs + 100,
    );
    await this.append(
      stream,
      operator.id,
      [
        {
          type: 'FreeSpinSettled',
          data: {
            issueId,
            roundId,
            gameId: 101,
            spinNumber,
            rawWinMinor: winMinor,
            winMinor,
            totalWinMinor: total + winMinor,
            spinsLeft: 3 - spinNumber,
            settledAt: iso(atMs + 200),
            transactionId: this.id(),
          },
        },
      ],
      atMs + 200,
    );
    bonus.spinWins.push(winMinor);
    await this.win(operator, bonus.playerId, roundId, winMinor, issueId, atMs + 300);
  }

  async end(operator: SyntheticOperator, issueId: number, end: 'completed' | 'expired' | 'canceled', atMs: number) {
    const bonus = this.bonusOf(issueId);
    const totalWinMinor = bonus.spinWins.reduce((sum, win) => sum + win, 0);
    const spinsForfeited = 3 - bonus.spinWins.length;
    const at = iso(atMs);
    const event: DomainEvent =
      end === 'completed'
        ? { type: 'BonusCallCompleted', data: { issueId, reason: 'spins_used', totalWinMinor, completedAt: at } }
        : end === 'expired'
          ? { type: 'BonusCallExpired', data: { issueId, spinsForfeited, totalWinMinor, expiredAt: at } }
          : { type: 'BonusCallCanceled', data: { issueId, spinsForfeited, totalWinMinor, canceledAt: at } };
    await this.append(playerBonusStream(operator.id, bonus.playerId), operator.id, [event], atMs);
    bonus.end = end;
  }

  /** A paid round: its bet accepted (or timed out and canceled), settled, its win credited. */
  async paidRound(
    operator: SyntheticOperator,
    playerId: string,
    betMinor: number,
    winMinor: number,
    atMs: number,
    fate: 'accepted' | 'timed_out' = 'accepted',
  ): Promise<void> {
    const roundId = this.id();
    const betTx = this.id();
    await this.append(
      roundStream(roundId),
      operator.id,
      [this.roundStarted(operator, playerId, roundId, atMs, 0, betTx, betMinor)],
      atMs,
    );
    const request = {
      command: 'bet' as const,
      ...requestBase({ operator, playerId }, betTx, roundId, 0, iso(atMs)),
      amountMinor: betMinor,
      isBonusBusy: false,
    };
    const events: DomainEvent[] = [
      {
        type: 'WalletRequested',
        data: { transactionId: betTx, operatorId: operator.id, command: 'bet', request, requestedAt: iso(atMs) },
      },
      { type: 'WalletAttempted', data: { attempt: 1, at: iso(atMs + 5) } },
    ];
    const round: WrittenPaidRound = {
      operatorId: operator.id,
      playerId,
      currency: operator.currency,
      betMinor,
      winMinor: fate === 'accepted' ? winMinor : 0,
      betPaidAt: undefined,
      winPaidAt: undefined,
    };
    this.written.paidRounds.push(round);
    if (fate === 'timed_out') {
      events.push(
        {
          type: 'WalletFailed',
          data: { error: 'timeout: no reply within 3000 ms', attempt: 1, final: true, at: iso(atMs + 3_005) },
        },
        {
          type: 'CancelRequested',
          data: { cancelTransactionId: this.id(), refTransactionId: betTx, at: iso(atMs + 3_006) },
        },
        { type: 'WalletAttempted', data: { attempt: 1, command: 'cancel', at: iso(atMs + 3_007) } },
        { type: 'CancelSucceeded', data: { at: iso(atMs + 3_030), balanceMinor: 50_000 } },
      );
      await this.append(walletTxStream(betTx), operator.id, events, atMs + 3_030);
      await this.append(
        roundStream(roundId),
        operator.id,
        [{ type: 'RoundCanceled', data: { roundId, reason: 'bet_timeout', canceledAt: iso(atMs + 3_040) } }],
        atMs + 3_040,
      );
      return;
    }
    round.betPaidAt = iso(atMs + 25);
    events.push({ type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 50_000, at: round.betPaidAt } });
    await this.append(walletTxStream(betTx), operator.id, events, atMs + 25);
    await this.append(
      roundStream(roundId),
      operator.id,
      [this.roundSettled(roundId, winMinor, atMs + 50, winMinor > 0 ? this.id() : undefined)],
      atMs + 50,
    );
    if (winMinor > 0) round.winPaidAt = await this.win(operator, playerId, roundId, winMinor, 0, atMs + 60);
  }

  private async win(
    operator: SyntheticOperator,
    playerId: string,
    roundId: number,
    amountMinor: number,
    bonusId: number,
    atMs: number,
  ): Promise<string> {
    const transactionId = this.id();
    const request = {
      command: 'win' as const,
      ...requestBase({ operator, playerId }, transactionId, roundId, bonusId, iso(atMs)),
      amountMinor,
      isRoundFinished: true,
      source: { stream: roundStream(roundId), revision: 1, eventId: randomUUID() },
    };
    const paidAt = iso(atMs + 30);
    await this.append(
      walletTxStream(transactionId),
      operator.id,
      [
        {
          type: 'WalletRequested',
          data: { transactionId, operatorId: operator.id, command: 'win', request, requestedAt: iso(atMs) },
        },
        { type: 'WalletAttempted', data: { attempt: 1, at: iso(atMs + 5) } },
        { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 50_000, at: paidAt } },
      ],
      atMs + 30,
    );
    return paidAt;
  }

  private roundStarted(
    operator: SyntheticOperator,
    playerId: string,
    roundId: number,
    atMs: number,
    issueId: number,
    betTx?: number,
    betMinor = 100,
  ): DomainEvent {
    return {
      type: 'RoundStarted',
      data: {
        roundId,
        sessionToken: `tok_campaign_${playerId}_${'x'.repeat(16)}`,
        operatorId: operator.id,
        playerId,
        providerId: 1,
        gameId: 101,
        kind: issueId === 0 ? 'paid' : 'free',
        currency: operator.currency,
        betMinor,
        bonusId: issueId,
        rtpProfile: 'standard',
        startedAt: iso(atMs),
        ...(betTx === undefined ? {} : { transactionId: betTx, isBonusBusy: false }),
      },
    };
  }

  private roundSettled(roundId: number, winMinor: number, atMs: number, winTransactionId?: number): DomainEvent {
    return {
      type: 'RoundSettled',
      data: {
        roundId,
        outcome: { modelId: 'lotus-garden', profile: 'standard', betMinor: 100, draws: [1, 2, 3, 4, 5] },
        winMinor,
        settledAt: iso(atMs),
        ...(winTransactionId === undefined ? {} : { winTransactionId }),
      },
    };
  }
}

/**
 * The scenario, from `start` (default 2026-11-20T10:00:00Z). casino-eu's campaign `autumn` names
 * four players: `pa` completes its three spins, `pb` lets its bonus expire unplayed, `pc` plays one
 * spin and is canceled, `pd` is refused (it already has a bonus). `pa` gets a second bonus
 * (`bonus-x`, no campaign) two days later. casino-seoul runs a campaign of the same id for `pa`
 * (another operator's player of the same id). Paid rounds fall before the bonuses, inside their
 * windows (one timed out and canceled), after `pa`'s second bonus and beyond every window.
 */
export async function writeCampaignLog(
  store: EventStore,
  start = '2026-11-20T10:00:00.000Z',
): Promise<SyntheticCampaignLog> {
  const t0 = Date.parse(start);
  const [eu, seoul] = CAMPAIGN_OPERATORS as [SyntheticOperator, SyntheticOperator];
  const w = new CampaignWriter(store);
  // Before any bonus: not in bonus-return.
  await w.paidRound(eu, 'pa', 500, 0, t0 - 2 * HOUR);
  const autumn = await w.campaign(
    eu,
    'autumn',
    ['pa', 'pb', 'pc', 'pd'],
    [{ playerId: 'pd', code: 'ACTIVE_BONUS_EXISTS' }],
    t0,
  );
  const seoulAutumn = await w.campaign(
    seoul,
    'autumn',
    ['pa', 'pz'],
    [{ playerId: 'pz', code: 'CURRENCY_NOT_ALLOWED' }],
    t0 + 5 * 60_000,
  );
  const pa = autumn.get('pa') as number;
  const pb = autumn.get('pb') as number;
  const pc = autumn.get('pc') as number;
  await w.freeSpin(eu, pa, 200, t0 + HOUR);
  await w.freeSpin(eu, pa, 0, t0 + HOUR + 10_000);
  await w.freeSpin(eu, pa, 300, t0 + HOUR + 20_000);
  await w.end(eu, pa, 'completed', t0 + HOUR + 30_000);
  await w.freeSpin(eu, pc, 150, t0 + 2 * HOUR);
  await w.end(eu, pc, 'canceled', t0 + 3 * HOUR);
  await w.freeSpin(seoul, seoulAutumn.get('pa') as number, 1_000, t0 + 2 * HOUR);
  // Inside pa's first window; one bet timed out and canceled.
  await w.paidRound(eu, 'pa', 100, 250, t0 + 5 * HOUR);
  await w.paidRound(eu, 'pa', 200, 0, t0 + 6 * HOUR, 'timed_out');
  await w.paidRound(eu, 'pc', 300, 100, t0 + 7 * HOUR);
  await w.paidRound(seoul, 'pa', 5_000, 2_000, t0 + 8 * HOUR);
  await w.end(eu, pb, 'expired', t0 + 3 * DAY);
  // pa's second bonus, two days on: later bets are its.
  await w.bonus(eu, 'pa', 'bonus-x', undefined, t0 + 2 * DAY);
  await w.paidRound(eu, 'pa', 400, 800, t0 + 2 * DAY + HOUR);
  // pc's window (7 days) has passed: not counted.
  await w.paidRound(eu, 'pc', 700, 0, t0 + 8 * DAY);
  // Within 7 days of pa's second bonus.
  await w.paidRound(eu, 'pa', 600, 0, t0 + 8 * DAY);
  return w.written;
}
