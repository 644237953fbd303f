/**
 * The command use cases against a real embedded event store, called concurrently without a bus
 * (so nothing serialises them): the expected-revision check alone keeps the rules.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { bonusRequestStream, isRefusal, playerBonusStream } from '@reelstream/contracts';
import { reserveGuard } from '../src/index.js';
import { accepted, command, refusedCodes, registerCommand, StoreFixture } from './fixtures.js';

const fixture = new StoreFixture();
afterAll(() => fixture.close());

const registeredIn = async (playerId: string) =>
  (await fixture.store.readStream(playerBonusStream('demo', playerId)))
    .filter((event) => event.type === 'BonusCallRegistered')
    .map((event) => (event.data as { issueId: number }).issueId);

describe('BonusCommands under real concurrency (read → decide → append, retried on WrongExpectedRevision)', () => {
  it('50 concurrent registrations for one player: one accepted, 49 ACTIVE_BONUS_EXISTS, one BonusCallRegistered', async () => {
    const commands = fixture.commands();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, n) => commands.register(...registerCommand(`race-${n}`, 'racer'))),
    );
    const registered = answers.flatMap((answer) => (isRefusal(answer) ? [] : [answer.issueId]));
    expect(registered).toHaveLength(1);
    expect(refusedCodes(answers)).toEqual(Array.from({ length: 49 }, () => 'ACTIVE_BONUS_EXISTS'));
    expect(await registeredIn('racer')).toEqual(registered);
  });

  it('the same registration 20 times concurrently: one issueId, one BonusCallRegistered, one guard event', async () => {
    const commands = fixture.commands();
    const [resend, origin] = registerCommand('same-body', 'resender');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        commands.register(resend, { ...origin, commandId: `c-${Math.random().toString(36).slice(2)}` }),
      ),
    );
    const issueIds = new Set(answers.map((answer) => (isRefusal(answer) ? answer.code : answer.issueId)));
    expect(issueIds.size).toBe(1);
    expect(await registeredIn('resender')).toEqual([...issueIds]);
    expect(await fixture.store.readStream(bonusRequestStream('demo', 'same-body'))).toHaveLength(1);
  });

  it('a crash between the platformId reservation and the registration is completed by the resend, with the reserved issueId', async () => {
    const commands = fixture.commands();
    const [request, origin] = registerCommand('half-done', 'crashed');
    await reserveGuard(
      fixture.store,
      { operatorId: 'demo', platformId: 'half-done' },
      {
        issueId: 4242,
        requestHash: request.requestHash,
        playerId: 'crashed',
        acceptedAt: new Date().toISOString(),
      },
      origin,
    );
    expect(await commands.register(request, origin)).toEqual({ issueId: 4242, replayed: false });
    expect(await commands.register(request, origin)).toEqual({ issueId: 4242, replayed: true });
    expect(await registeredIn('crashed')).toEqual([4242]);
  });

  it('10 concurrent StartFreeSpin of different rounds: one spin starts, the others are FREE_SPIN_IN_PROGRESS', async () => {
    const commands = fixture.commands();
    const spins = fixture.freeSpins();
    const { issueId } = accepted(await commands.register(...registerCommand('spin-race', 'spinner')));
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        spins.startSpin(
          ...command({ operatorId: 'demo', playerId: 'spinner', issueId, gameId: 101, roundId: 900 + n }),
        ),
      ),
    );
    expect(answers.filter((answer) => !isRefusal(answer))).toHaveLength(1);
    expect(refusedCodes(answers)).toEqual(Array.from({ length: 9 }, () => 'FREE_SPIN_IN_PROGRESS'));
    const stream = await fixture.store.readStream(playerBonusStream('demo', 'spinner'));
    expect(stream.filter((event) => event.type === 'FreeSpinStarted')).toHaveLength(1);
  });

  it('a settle and a cancel racing: the spin started before the cancel is credited in either order', async () => {
    const commands = fixture.commands(undefined, async () => 'settler');
    const spins = fixture.freeSpins();
    const { issueId } = accepted(await commands.register(...registerCommand('settle-race', 'settler')));
    await spins.startSpin(...command({ operatorId: 'demo', playerId: 'settler', issueId, gameId: 102, roundId: 77 }));
    const [settle, cancel] = await Promise.all([
      spins.settleSpin(...command({ operatorId: 'demo', playerId: 'settler', issueId, roundId: 77, winMinor: 150 })),
      commands.cancel(...command({ operatorId: 'demo', issueId })),
    ]);
    expect(cancel).toMatchObject({ alreadyCanceled: false });
    const stream = await fixture.store.readStream(playerBonusStream('demo', 'settler'));
    const canceled = stream.find((event) => event.type === 'BonusCallCanceled')?.data as {
      totalWinMinor: number;
      spinsForfeited: number;
    };
    expect(settle).toMatchObject({ winMinor: 150, totalWinMinor: 150, completed: false });
    // Either order: the started spin is used (2 forfeited), and its win is in the stream once.
    expect(canceled).toEqual(expect.objectContaining({ totalWinMinor: expect.any(Number), spinsForfeited: 2 }));
    expect(
      stream
        .filter((event) => event.type === 'FreeSpinSettled')
        .map((event) => (event.data as { winMinor: number }).winMinor),
    ).toEqual([150]);
  });

  it('the ledger (the authority) refuses a base bet off the levels, a currency not allowed and an amount over the limit, with the details the gateway gives, and writes nothing', async () => {
    const commands = fixture.commands();
    expect(await commands.register(...registerCommand('terms-1', 'terms', { baseBetAmountMinor: 30 }))).toEqual({
      type: 'Refusal',
      code: 'BET_LEVEL_NOT_AVAILABLE',
      message: 'baseBetAmount 0.3 EUR is not a bet level of every game of the bonus call',
      details: [
        { path: 'metaData.baseBetAmount', message: 'game 101 offers 0.2, 0.4, 1, 2, 4, 10 EUR' },
        { path: 'metaData.baseBetAmount', message: 'game 102 offers 0.2, 0.4, 1, 2, 4, 10 EUR' },
        {
          path: 'metaData.baseBetAmount',
          message: 'levels every game of the bonus offers: 0.2, 0.4, 1, 2, 4, 10 EUR',
        },
      ],
      retriable: false,
    });
    expect(await commands.register(...registerCommand('terms-2', 'terms', { currency: 'USD' }))).toMatchObject({
      type: 'Refusal',
      code: 'CURRENCY_NOT_ALLOWED',
      details: [{ path: 'currency', message: 'must be one of EUR' }],
    });
    expect(
      await commands.register(...registerCommand('terms-3', 'terms', { callAmountMinor: 1_000_001 })),
    ).toMatchObject({
      type: 'Refusal',
      code: 'CALL_AMOUNT_LIMIT_EXCEEDED',
    });
    expect(await fixture.store.readStream(playerBonusStream('demo', 'terms'))).toEqual([]);
    expect(await fixture.store.readStream(bonusRequestStream('demo', 'terms-1'))).toEqual([]);
  });

  it('an operator the platform does not know is FORBIDDEN and nothing is written', async () => {
    const commands = fixture.commands();
    const answer = await commands.register(...registerCommand('x-1', 'stranger', { operatorId: 'nobody' }));
    expect(answer).toMatchObject({ type: 'Refusal', code: 'FORBIDDEN' });
    expect(await fixture.store.readStream(bonusRequestStream('nobody', 'x-1'))).toEqual([]);
  });
});
