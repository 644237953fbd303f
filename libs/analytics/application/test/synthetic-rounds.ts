/** The synthetic log's rounds: paid rounds with their bet and win transactions, free-spin bonus calls. */
import { randomUUID } from 'node:crypto';
import { playerBonusStream, roundStream, walletTxStream, type DomainEvent } from '@reelstream/contracts';
import { BET, requestBase, tick, type SessionContext } from './synthetic-writer.js';

/** A win callback delivered: OK at once, OK on the second try, or dead-lettered after three. */
async function deliverWin(
  session: SessionContext,
  roundId: number,
  amountMinor: number,
  bonusId: number,
  source: { stream: string; revision: number },
): Promise<string | undefined> {
  const { writer, operator } = session;
  const transactionId = writer.id();
  const at = tick(session);
  const request = {
    command: 'win' as const,
    ...requestBase(session, transactionId, roundId, bonusId, at),
    amountMinor,
    isRoundFinished: true,
    source: { ...source, eventId: randomUUID() },
  };
  const fate = writer.random();
  let paidAt: string | undefined;
  const events: DomainEvent[] = [
    {
      type: 'WalletRequested',
      data: { transactionId, operatorId: operator.id, command: 'win', request, requestedAt: at },
    },
    { type: 'WalletAttempted', data: { attempt: 1, at: tick(session, 10) } },
  ];
  if (fate < 0.02) {
    for (const attempt of [1, 2, 3]) {
      if (attempt > 1) events.push({ type: 'WalletAttempted', data: { attempt, at: tick(session, 500) } });
      events.push({ type: 'WalletFailed', data: { error: 'timeout', attempt, final: false, at: tick(session, 3500) } });
    }
    events.push({ type: 'WinDeadLettered', data: { attempts: 3, lastError: 'timeout', at: tick(session, 1) } });
  } else {
    if (fate < 0.1) {
      events.push({
        type: 'WalletFailed',
        data: { error: 'timeout', attempt: 1, final: false, at: tick(session, 3500) },
      });
      events.push({ type: 'WalletAttempted', data: { attempt: 2, at: tick(session, 200) } });
    }
    paidAt = tick(session, 25);
    events.push({ type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 50_000, at: paidAt } });
  }
  await writer.append(walletTxStream(transactionId), operator.id, events, at);
  return paidAt;
}

/** A paid round: bet accepted (or refused, or timed out and canceled), outcome, win. */
export async function paidRound(session: SessionContext): Promise<void> {
  const { writer, operator, playerId, token, streamer } = session;
  const roundId = writer.id();
  const betTx = writer.id();
  const startedAt = tick(session);
  const profile = streamer ? 'streamer' : 'standard';
  await writer.append(
    roundStream(roundId),
    operator.id,
    [
      {
        type: 'RoundStarted',
        data: {
          roundId,
          sessionToken: token,
          operatorId: operator.id,
          playerId,
          providerId: 1,
          gameId: 101,
          kind: 'paid',
          currency: operator.currency,
          betMinor: BET,
          bonusId: 0,
          rtpProfile: profile,
          startedAt,
          transactionId: betTx,
          isBonusBusy: false,
        },
      },
    ],
    startedAt,
  );
  const request = {
    command: 'bet' as const,
    ...requestBase(session, betTx, roundId, 0, startedAt),
    amountMinor: BET,
    isBonusBusy: false,
  };
  const fate = writer.random();
  const events: DomainEvent[] = [
    {
      type: 'WalletRequested',
      data: { transactionId: betTx, operatorId: operator.id, command: 'bet', request, requestedAt: startedAt },
    },
    { type: 'WalletAttempted', data: { attempt: 1, at: tick(session, 5) } },
  ];
  if (fate < 0.03) {
    events.push({
      type: 'WalletFailed',
      data: { statusCode: 'ERR_NOT_ENOUGH_MONEY', balanceMinor: 0, attempt: 1, final: true, at: tick(session, 20) },
    });
  } else if (fate < 0.05) {
    const cancelTx = writer.id();
    events.push(
      { type: 'WalletFailed', data: { error: 'timeout', attempt: 1, final: true, at: tick(session, 3500) } },
      {
        type: 'CancelRequested',
        data: { cancelTransactionId: cancelTx, refTransactionId: betTx, at: tick(session, 1) },
      },
      { type: 'WalletAttempted', data: { attempt: 1, command: 'cancel', at: tick(session, 2) } },
      { type: 'CancelSucceeded', data: { at: tick(session, 30), balanceMinor: 50_000 } },
    );
  } else {
    events.push({ type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 50_000, at: tick(session, 20) } });
  }
  await writer.append(walletTxStream(betTx), operator.id, events, startedAt);
  if (fate < 0.05) {
    const canceledAt = tick(session);
    await writer.append(
      roundStream(roundId),
      operator.id,
      [
        {
          type: 'RoundCanceled',
          data: { roundId, reason: fate < 0.03 ? 'bet_rejected:ERR_NOT_ENOUGH_MONEY' : 'bet_timeout', canceledAt },
        },
      ],
      canceledAt,
    );
    return;
  }
  const betAt = (events[events.length - 1]?.data as { at: string }).at;
  if (streamer) writer.streamerPaidRounds += 1;
  else writer.count(operator, betAt, playerId, { betsMinor: BET });
  const winMinor = writer.random() < 0.3 ? BET * (1 + Math.floor(writer.random() * 5)) : 0;
  const settledAt = tick(session);
  const draws = [0, 1, 2, 3, 4].map(() => Math.floor(writer.random() * 2 ** 32));
  const winTransactionId = winMinor > 0 ? writer.id() : undefined;
  await writer.append(
    roundStream(roundId),
    operator.id,
    [
      {
        type: 'RoundSettled',
        data: {
          roundId,
          outcome: { modelId: 'lotus-garden', profile, betMinor: BET, draws },
          winMinor,
          settledAt,
          ...(winTransactionId ? { winTransactionId } : {}),
        },
      },
    ],
    settledAt,
  );
  if (winMinor === 0) return;
  const paidAt = await deliverWin(session, roundId, winMinor, 0, { stream: roundStream(roundId), revision: 1 });
  if (paidAt && !streamer) writer.count(operator, paidAt, playerId, { winsMinor: winMinor });
}

/** A 3-spin Free Spin Bonus played to the end on game 101. */
export async function freeSpinBonus(session: SessionContext): Promise<void> {
  const { writer, operator, playerId, token, streamer } = session;
  const issueId = writer.id();
  const stream = playerBonusStream(operator.id, playerId);
  const registeredAt = tick(session);
  const spins = 3;
  const terms = {
    issueId,
    platformId: `bonus-${issueId}`,
    operatorId: operator.id,
    playerId,
    providerId: 1,
    gameIds: [101],
    bonusType: 1 as const,
    currency: operator.currency,
    callAmountMinor: 10_000,
    spinAmount: spins,
    baseBetAmountMinor: BET,
  };
  const expireAt = new Date(session.clockMs + 86_400_000).toISOString();
  await writer.append(
    stream,
    operator.id,
    [{ type: 'BonusCallRegistered', data: { ...terms, expireAt, registeredAt } }],
    registeredAt,
  );
  let totalWinMinor = 0;
  for (let spinNumber = 1; spinNumber <= spins; spinNumber++) {
    const roundId = writer.id();
    const startedAt = tick(session);
    await writer.append(
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
            baseBetAmountMinor: BET,
            winCapLeftMinor: 10_000 - totalWinMinor,
            startedAt,
          },
        },
      ],
      startedAt,
    );
    const rawWinMinor = writer.random() < 0.5 ? BET * 2 : 0;
    await writer.append(
      roundStream(roundId),
      operator.id,
      [
        {
          type: 'RoundStarted',
          data: {
            roundId,
            sessionToken: token,
            operatorId: operator.id,
            playerId,
            providerId: 1,
            gameId: 101,
            kind: 'free',
            currency: operator.currency,
            betMinor: BET,
            bonusId: issueId,
            rtpProfile: streamer ? 'streamer' : 'standard',
            startedAt,
          },
        },
        {
          type: 'RoundSettled',
          data: {
            roundId,
            outcome: {
              modelId: 'lotus-garden',
              profile: streamer ? 'streamer' : 'standard',
              betMinor: BET,
              draws: [1, 2, 3],
            },
            winMinor: rawWinMinor,
            settledAt: tick(session, 5),
          },
        },
      ],
      startedAt,
    );
    totalWinMinor += rawWinMinor;
    const settledAt = tick(session);
    const winTx = writer.id();
    await writer.append(
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
            rawWinMinor,
            winMinor: rawWinMinor,
            totalWinMinor,
            spinsLeft: spins - spinNumber,
            settledAt,
            transactionId: winTx,
          },
        },
      ],
      settledAt,
    );
    if (!streamer) writer.count(operator, settledAt, playerId, { bonusCostMinor: BET });
    const paidAt = await deliverWin(session, roundId, rawWinMinor, issueId, { stream, revision: 2 * spinNumber });
    if (paidAt && !streamer)
      writer.count(operator, paidAt, playerId, { winsMinor: rawWinMinor, freeSpinWinsMinor: rawWinMinor });
  }
  const completedAt = tick(session);
  await writer.append(
    stream,
    operator.id,
    [{ type: 'BonusCallCompleted', data: { issueId, reason: 'spins_used', totalWinMinor, completedAt } }],
    completedAt,
  );
}
