/** The synthetic log's rounds: paid rounds with their bet and win transactions, free-spin bonus calls. */
import { playerBonusStream, roundStream, walletTxStream, type DomainEvent } from '@reelstream/contracts';
import { BET, requestBase, seededUuid, tick, type SessionContext } from './synthetic-writer.js';

/** A win callback delivered: OK at once, OK on the second try, or dead-lettered after three. */
async function deliverWin(
  session: SessionContext,
  roundId: number,
  amountMinor: number,
  bonusId: number,
  source: { stream: string; revision: number },
): Promise<string | undefined> {
  const { writer, operator } = session;
  const transactionId = session.id();
  const at = tick(session);
  const request = {
    command: 'win' as const,
    ...requestBase(session, transactionId, roundId, bonusId, at),
    amountMinor,
    isRoundFinished: true,
    source: { ...source, eventId: seededUuid(session.random) },
  };
  const fate = session.random();
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

/** RoundStarted as the game-server writes it: a paid round names its bet transaction, a free one its bonus call. */
function roundStarted(
  session: SessionContext,
  roundId: number,
  at: string,
  free?: { issueId: number },
  betTx?: number,
): DomainEvent {
  const { operator, playerId, token, streamer } = session;
  return {
    type: 'RoundStarted',
    data: {
      roundId,
      sessionToken: token,
      operatorId: operator.id,
      playerId,
      providerId: 1,
      gameId: 101,
      kind: free ? 'free' : 'paid',
      currency: operator.currency,
      betMinor: BET,
      bonusId: free?.issueId ?? 0,
      rtpProfile: streamer ? 'streamer' : 'standard',
      startedAt: at,
      ...(betTx === undefined ? {} : { transactionId: betTx, isBonusBusy: false }),
    },
  };
}

function roundSettled(
  session: SessionContext,
  roundId: number,
  winMinor: number,
  winTransactionId?: number,
): DomainEvent {
  const draws = [0, 1, 2, 3, 4].map(() => Math.floor(session.random() * 2 ** 32));
  const profile = session.streamer ? 'streamer' : 'standard';
  return {
    type: 'RoundSettled',
    data: {
      roundId,
      outcome: { modelId: 'lotus-garden', profile, betMinor: BET, draws },
      winMinor,
      settledAt: tick(session, 5),
      ...(winTransactionId === undefined ? {} : { winTransactionId }),
    },
  };
}

type BetFate = 'accepted' | 'refused' | 'timed_out';

/** The bet's walletTx stream: accepted, refused for money, or timed out and canceled. */
function betTransaction(
  session: SessionContext,
  betTx: number,
  roundId: number,
  fate: BetFate,
  at: string,
): DomainEvent[] {
  const { operator } = session;
  const request = {
    command: 'bet' as const,
    ...requestBase(session, betTx, roundId, 0, at),
    amountMinor: BET,
    isBonusBusy: false,
  };
  const events: DomainEvent[] = [
    {
      type: 'WalletRequested',
      data: { transactionId: betTx, operatorId: operator.id, command: 'bet', request, requestedAt: at },
    },
    { type: 'WalletAttempted', data: { attempt: 1, at: tick(session, 5) } },
  ];
  if (fate === 'refused')
    events.push({
      type: 'WalletFailed',
      data: { statusCode: 'ERR_NOT_ENOUGH_MONEY', balanceMinor: 0, attempt: 1, final: true, at: tick(session, 20) },
    });
  else if (fate === 'timed_out')
    events.push(
      { type: 'WalletFailed', data: { error: 'timeout', attempt: 1, final: true, at: tick(session, 3500) } },
      {
        type: 'CancelRequested',
        data: { cancelTransactionId: session.id(), refTransactionId: betTx, at: tick(session, 1) },
      },
      { type: 'WalletAttempted', data: { attempt: 1, command: 'cancel', at: tick(session, 2) } },
      { type: 'CancelSucceeded', data: { at: tick(session, 30), balanceMinor: 50_000 } },
    );
  else
    events.push({ type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 50_000, at: tick(session, 20) } });
  return events;
}

/** A paid round: bet accepted (or refused, or timed out and canceled), outcome, win. */
export async function paidRound(session: SessionContext): Promise<void> {
  const { writer, operator, playerId, streamer } = session;
  const roundId = session.id();
  const betTx = session.id();
  const startedAt = tick(session);
  await writer.append(
    roundStream(roundId),
    operator.id,
    [roundStarted(session, roundId, startedAt, undefined, betTx)],
    startedAt,
  );
  const draw = session.random();
  const fate: BetFate = draw < 0.03 ? 'refused' : draw < 0.05 ? 'timed_out' : 'accepted';
  const bet = betTransaction(session, betTx, roundId, fate, startedAt);
  await writer.append(walletTxStream(betTx), operator.id, bet, startedAt);
  if (fate !== 'accepted') {
    const canceledAt = tick(session);
    const reason = fate === 'refused' ? 'bet_rejected:ERR_NOT_ENOUGH_MONEY' : 'bet_timeout';
    await writer.append(
      roundStream(roundId),
      operator.id,
      [{ type: 'RoundCanceled', data: { roundId, reason, canceledAt } }],
      canceledAt,
    );
    writer.rounds.push({
      roundId,
      operatorId: operator.id,
      kind: 'paid',
      streamer,
      outcome: 'canceled',
      atMs: Date.parse(canceledAt),
      betMinor: BET,
      winMinor: 0,
    });
    return;
  }
  if (streamer) writer.streamerPaidRounds += 1;
  else writer.count(operator, (bet[bet.length - 1]?.data as { at: string }).at, playerId, { betsMinor: BET });
  const winMinor = session.random() < 0.3 ? BET * (1 + Math.floor(session.random() * 5)) : 0;
  const settled = roundSettled(session, roundId, winMinor, winMinor > 0 ? session.id() : undefined);
  const settledAt = (settled.data as { settledAt: string }).settledAt;
  await writer.append(roundStream(roundId), operator.id, [settled], settledAt);
  writer.rounds.push({
    roundId,
    operatorId: operator.id,
    kind: 'paid',
    streamer,
    outcome: 'settled',
    atMs: Date.parse(settledAt),
    betMinor: BET,
    winMinor,
  });
  if (winMinor === 0) return;
  const paidAt = await deliverWin(session, roundId, winMinor, 0, { stream: roundStream(roundId), revision: 1 });
  if (paidAt && !streamer) writer.count(operator, paidAt, playerId, { winsMinor: winMinor });
}

/** One free spin of a bonus call: started, played as a free round, settled, its win delivered. Returns the new total win. */
async function freeSpin(
  session: SessionContext,
  issueId: number,
  spinNumber: number,
  spins: number,
  totalWinMinor: number,
): Promise<number> {
  const { writer, operator, playerId, streamer } = session;
  const stream = playerBonusStream(operator.id, playerId);
  const roundId = session.id();
  const startedAt = tick(session);
  const started = {
    issueId,
    roundId,
    gameId: 101,
    spinNumber,
    baseBetAmountMinor: BET,
    winCapLeftMinor: 10_000 - totalWinMinor,
    startedAt,
  };
  await writer.append(stream, operator.id, [{ type: 'FreeSpinStarted', data: started }], startedAt);
  const rawWinMinor = session.random() < 0.5 ? BET * 2 : 0;
  const round = [roundStarted(session, roundId, startedAt, { issueId }), roundSettled(session, roundId, rawWinMinor)];
  await writer.append(roundStream(roundId), operator.id, round, startedAt);
  writer.rounds.push({
    roundId,
    operatorId: operator.id,
    kind: 'free',
    streamer,
    outcome: 'settled',
    atMs: Date.parse((round[1]?.data as { settledAt: string }).settledAt),
    betMinor: 0,
    winMinor: rawWinMinor,
  });
  const total = totalWinMinor + rawWinMinor;
  const settledAt = tick(session);
  const settled = {
    issueId,
    roundId,
    gameId: 101,
    spinNumber,
    rawWinMinor,
    winMinor: rawWinMinor,
    totalWinMinor: total,
    spinsLeft: spins - spinNumber,
    settledAt,
    transactionId: session.id(),
  };
  await writer.append(stream, operator.id, [{ type: 'FreeSpinSettled', data: settled }], settledAt);
  if (!streamer) writer.count(operator, settledAt, playerId, { bonusCostMinor: BET });
  const paidAt = await deliverWin(session, roundId, rawWinMinor, issueId, { stream, revision: 2 * spinNumber });
  if (paidAt && !streamer)
    writer.count(operator, paidAt, playerId, { winsMinor: rawWinMinor, freeSpinWinsMinor: rawWinMinor });
  return total;
}

/** A 3-spin Free Spin Bonus played to the end on game 101. */
export async function freeSpinBonus(session: SessionContext): Promise<void> {
  const { writer, operator, playerId } = session;
  const issueId = session.id();
  const stream = playerBonusStream(operator.id, playerId);
  const registeredAt = tick(session);
  const spins = 3;
  const registered = {
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
    expireAt: new Date(session.clockMs + 86_400_000).toISOString(),
    registeredAt,
  };
  await writer.append(stream, operator.id, [{ type: 'BonusCallRegistered', data: registered }], registeredAt);
  let totalWinMinor = 0;
  for (let spinNumber = 1; spinNumber <= spins; spinNumber++)
    totalWinMinor = await freeSpin(session, issueId, spinNumber, spins, totalWinMinor);
  const completedAt = tick(session);
  const completed = { issueId, reason: 'spins_used' as const, totalWinMinor, completedAt };
  await writer.append(stream, operator.id, [{ type: 'BonusCallCompleted', data: completed }], completedAt);
}
