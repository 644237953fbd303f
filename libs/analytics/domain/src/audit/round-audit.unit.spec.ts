import { describe, expect, it } from '@jest/globals';
import type { PlayerBonusEvent, RoundEvent, WalletRequest, WalletTxEvent } from '@reelstream/contracts';
import { createSeededRng, playRound, recordOf, type RoundOutcome } from '@reelstream/game-domain';
import { auditRound, RoundNotFoundError, type RoundAuditInput } from './round-audit.js';

const AT = '2026-01-01T00:00:00.000Z';
const parties = {
  operatorId: 'acme',
  playerId: 'p1',
  roundId: 10,
  providerId: 1,
  gameId: 101,
  currency: 'EUR',
  bonusId: 0,
};

/** A winning lotus-garden round at 1.00 EUR, the same one every run. */
function winningRound(): RoundOutcome {
  const rng = createSeededRng('round-audit unit');
  for (;;) {
    const outcome = playRound({ model: 'lotus-garden', profile: 'standard', betMinor: 100, rng });
    if (outcome.winMinor > 0) return outcome;
  }
}

const started = (more: Record<string, unknown> = {}): RoundEvent =>
  ({
    type: 'RoundStarted',
    data: {
      sessionToken: 'tok',
      ...parties,
      kind: 'paid',
      betMinor: 100,
      rtpProfile: 'standard',
      startedAt: AT,
      ...more,
    },
  }) as RoundEvent;

function walletTx(request: WalletRequest, ok: boolean, cancel?: number): WalletTxEvent[] {
  const events: WalletTxEvent[] = [
    {
      type: 'WalletRequested',
      data: {
        transactionId: request.transactionId,
        operatorId: 'acme',
        command: request.command,
        request,
        requestedAt: AT,
      },
    },
    { type: 'WalletAttempted', data: { attempt: 1, at: AT } },
    ok
      ? { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 0, at: AT } }
      : { type: 'WalletFailed', data: { error: 'HTTP 500', attempt: 1, final: true, at: AT } },
  ] as WalletTxEvent[];
  if (cancel !== undefined)
    events.push(
      {
        type: 'CancelRequested',
        data: { cancelTransactionId: cancel, refTransactionId: request.transactionId, at: AT },
      },
      { type: 'CancelSucceeded', data: { at: AT } },
    );
  return events;
}

function paidInput(outcome: RoundOutcome, settledWin = outcome.winMinor, paidWin = outcome.winMinor): RoundAuditInput {
  const bet: WalletRequest = {
    command: 'bet',
    transactionId: 11,
    ...parties,
    requestedAt: AT,
    amountMinor: 100,
    isBonusBusy: false,
  };
  const win: WalletRequest = {
    command: 'win',
    transactionId: 12,
    ...parties,
    requestedAt: AT,
    amountMinor: paidWin,
    isRoundFinished: true,
  };
  return {
    roundId: 10,
    roundEvents: [
      started({ transactionId: 11, isBonusBusy: false }),
      {
        type: 'RoundSettled',
        data: { roundId: 10, outcome: recordOf(outcome), winMinor: settledWin, settledAt: AT, winTransactionId: 12 },
      } as unknown as RoundEvent,
    ],
    bonusEvents: [],
    walletTx: new Map([
      [11, walletTx(bet, true)],
      [12, walletTx(win, true)],
    ]),
    catalogModelId: 'lotus-garden',
  };
}

const failed = (audit: ReturnType<typeof auditRound>) =>
  audit.checks.filter((c) => c.result === 'mismatch').map((c) => c.name);

describe('auditRound', () => {
  it('confirms a paid round whose record, win and transactions agree, and lists what moved the money', () => {
    const outcome = winningRound();
    const audit = auditRound(paidInput(outcome));
    expect(failed(audit)).toEqual([]);
    expect(audit).toMatchObject({
      matches: true,
      status: 'settled',
      recomputedWinMinor: outcome.winMinor,
      paidNetMinor: outcome.winMinor - 100,
    });
    expect(audit.transactions.map((tx) => [tx.command, tx.amountMinor])).toEqual([
      ['bet', -100],
      ['win', outcome.winMinor],
    ]);
  });

  it('fails a round whose recorded win, paid win or model is not what the draws produce', () => {
    const outcome = winningRound();
    expect(failed(auditRound(paidInput(outcome, outcome.winMinor + 1, outcome.winMinor + 1)))).toEqual([
      'win',
      'money',
    ]);
    expect(failed(auditRound(paidInput(outcome, outcome.winMinor, outcome.winMinor + 5)))).toEqual([
      'win transaction',
      'money',
    ]);
    expect(failed(auditRound({ ...paidInput(outcome), catalogModelId: 'dragon-pearl' }))).toEqual(['model']);
    const shortRecord = { ...recordOf(outcome), draws: outcome.draws.slice(0, -1) };
    const input = paidInput(outcome);
    const [first, settled] = input.roundEvents as [RoundEvent, RoundEvent & { type: 'RoundSettled' }];
    const tampered = auditRound({
      ...input,
      roundEvents: [first, { ...settled, data: { ...settled.data, outcome: shortRecord } }],
    });
    expect(tampered.checks.find((c) => c.result === 'mismatch')?.detail).toMatch(/^DRAWS_EXHAUSTED/);
  });

  it('requires a canceled round’s bet to be reverted when the operator may have taken it', () => {
    const bet: WalletRequest = {
      command: 'bet',
      transactionId: 11,
      ...parties,
      requestedAt: AT,
      amountMinor: 100,
      isBonusBusy: false,
    };
    const input = (cancel?: number): RoundAuditInput => ({
      roundId: 10,
      roundEvents: [
        started({ transactionId: 11 }),
        {
          type: 'RoundCanceled',
          data: { roundId: 10, reason: 'bet_rejected:ERR_UNKNOWN', canceledAt: AT },
        } as unknown as RoundEvent,
      ],
      bonusEvents: [],
      walletTx: new Map([[11, walletTx(bet, false, cancel)]]),
      catalogModelId: 'lotus-garden',
    });
    expect(auditRound(input(13))).toMatchObject({ matches: true, status: 'canceled', paidNetMinor: 0 });
    expect(failed(auditRound(input()))).toEqual(['cancel']);
  });

  it('holds a free spin to the win cap left when it started', () => {
    const outcome = winningRound();
    const capLeft = outcome.winMinor - 1;
    const win: WalletRequest = {
      command: 'win',
      transactionId: 12,
      ...parties,
      bonusId: 7,
      requestedAt: AT,
      amountMinor: capLeft,
      isRoundFinished: true,
    };
    const spin = { issueId: 7, roundId: 10, gameId: 101, spinNumber: 1 };
    const bonusEvents = (credited: number): PlayerBonusEvent[] => [
      { type: 'FreeSpinStarted', data: { ...spin, baseBetAmountMinor: 100, winCapLeftMinor: capLeft, startedAt: AT } },
      {
        type: 'FreeSpinSettled',
        data: {
          ...spin,
          rawWinMinor: outcome.winMinor,
          winMinor: credited,
          totalWinMinor: credited,
          spinsLeft: 0,
          settledAt: AT,
          transactionId: 12,
        },
      },
    ];
    const input = (credited: number): RoundAuditInput => ({
      roundId: 10,
      roundEvents: [
        started({ kind: 'free', bonusId: 7, outcome: recordOf(outcome) }),
        {
          type: 'RoundSettled',
          data: { roundId: 10, outcome: recordOf(outcome), winMinor: credited, settledAt: AT },
        } as unknown as RoundEvent,
      ],
      bonusEvents: bonusEvents(credited),
      walletTx: new Map([[12, walletTx(win, true)]]),
      catalogModelId: 'lotus-garden',
    });
    expect(auditRound(input(capLeft))).toMatchObject({ matches: true, paidNetMinor: capLeft });
    // the round and the ledger say the uncapped win was credited; the win sent stayed within the cap
    expect(failed(auditRound(input(outcome.winMinor)))).toEqual(['win cap']);
  });

  it('tells a paid round steered by a Regular Bonus Call from an ordinary one, and holds it to the bonus stream’s decision', () => {
    const outcome = winningRound();
    const topUpMinor = 7;
    const steeredWin = outcome.winMinor + topUpMinor;
    const input = paidInput(outcome, steeredWin, steeredWin);
    const steeredParties = (request: WalletRequest): WalletRequest => ({ ...request, bonusId: 77 }) as WalletRequest;
    const [first, settled] = input.roundEvents as [
      RoundEvent & { type: 'RoundStarted' },
      RoundEvent & { type: 'RoundSettled' },
    ];
    const decision = (data: Record<string, unknown> = {}): PlayerBonusEvent =>
      ({
        type: 'RegularBonusSpinSettled',
        data: {
          issueId: 77,
          roundId: 10,
          gameId: 101,
          spinNumber: 4,
          betMinor: 100,
          reelWinMinor: outcome.winMinor,
          topUpMinor,
          winMinor: steeredWin,
          totalWinMinor: 5_000,
          outcome: settled.data.outcome,
          settledAt: AT,
          ...data,
        },
      }) as PlayerBonusEvent;
    const steered = (bonusEvents: PlayerBonusEvent[]): RoundAuditInput => ({
      ...input,
      roundEvents: [
        { ...first, data: { ...first.data, bonusId: 77 } },
        { ...settled, data: { ...settled.data, topUpMinor } },
      ],
      bonusEvents,
      walletTx: new Map(
        [...input.walletTx].map(([id, events]) => [
          id,
          events.map((event) =>
            event.type === 'WalletRequested'
              ? { ...event, data: { ...event.data, request: steeredParties(event.data.request) } }
              : event,
          ),
        ]),
      ),
    });

    const audit = auditRound(steered([decision()]));
    expect(failed(audit)).toEqual([]);
    expect(audit).toMatchObject({ play: 'bonus_steered', bonusId: 77, topUpMinor, paidNetMinor: steeredWin - 100 });
    expect(failed(auditRound(steered([decision({ topUpMinor: 6, winMinor: steeredWin - 1 })])))).toEqual([
      'steered spin',
    ]);
    expect(failed(auditRound(steered([])))).toEqual(['steered spin']);
    // An ordinary paid round has no top-up.
    expect(auditRound(paidInput(outcome))).toMatchObject({ play: 'paid', bonusId: 0, topUpMinor: 0 });
    expect(failed(auditRound(paidInput(outcome, steeredWin, steeredWin)))).toEqual(['win', 'money']);
  });

  it('says a round the log does not have is not found', () => {
    expect(() =>
      auditRound({ roundId: 1, roundEvents: [], bonusEvents: [], walletTx: new Map(), catalogModelId: undefined }),
    ).toThrow(RoundNotFoundError);
  });
});
