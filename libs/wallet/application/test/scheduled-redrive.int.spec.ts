/**
 * The scheduled re-drive (docs/adr/0016-scheduled-win-redrive.md) on the embedded event store and
 * bus with a manual clock: when it sends, that what it sends is re-driven once however many
 * schedulers sent it, that a new scheduler (a restart, another replica taking the lease) derives
 * the same schedule from the log, and that it stops after the operator's window.
 */
import { describe, expect, it } from '@jest/globals';
import { Topics, walletRedriveRequest, type WalletRedriveRequest } from '@reelstream/contracts';
import type { Consumer } from '@reelstream/platform-ports';
import { eventually, recordWinSource } from '@reelstream/testing';
import { dispatchContext, handleWalletRequest, WinRedriveScheduler } from '../src/index.js';
import { ScriptedWallet } from './scripted-wallet.js';
import { dispatchRig } from './support/dispatch-rig.js';

const rig = dispatchRig('scheduled-redrive', 11);
const { clock, deps, messageOf, unsourcedWin } = rig;
const failure = { kind: 'no_reply', cause: 'timeout', reason: 'no reply within 4000 ms' } as const;
const MINUTE = 60_000;

/** The re-drive requests published on wallet.requests, as the dispatcher would receive them. */
async function watchRedrives(group: string): Promise<{ sent: WalletRedriveRequest[]; consumer: Consumer }> {
  const sent: WalletRedriveRequest[] = [];
  const consumer = await rig.bus.subscribe({
    groupId: group,
    topics: [Topics.walletRequests],
    handler: async (message) => {
      const parsed = walletRedriveRequest.safeParse(message.value);
      if (parsed.success) sent.push(parsed.data);
    },
  });
  await consumer.ready;
  return { sent, consumer };
}

const scheduler = () =>
  new WinRedriveScheduler({
    store: rig.store,
    bus: rig.bus,
    clock,
    operators: { get: (id) => deps(new ScriptedWallet()).operators.get(id) },
    log: deps(new ScriptedWallet()).log,
  });

describe('the scheduled re-drive of a dead-lettered win', () => {
  it('sends nothing before it is due, then the re-drive of that dead letter; two schedulers sending it re-drive it once', async () => {
    const win = await recordWinSource(rig.store, unsourcedWin('alpha', 'sched1'));
    await handleWalletRequest(dispatchContext(deps(new ScriptedWallet(failure))), messageOf(win));
    const { sent, consumer } = await watchRedrives('sched-1');
    const [one, two] = [scheduler(), scheduler()];

    expect((await one.tick()).sent).toBe(0);
    clock.advance(5 * MINUTE);
    // Two schedulers at once: what a lease hand-over overlap or a paused holder can do.
    expect((await one.tick()).sent).toBe(1);
    expect((await two.tick()).sent).toBe(1);
    await eventually(() => expect(sent.filter((r) => r.transactionId === win.transactionId)).toHaveLength(2));
    await consumer.stop();
    const requests = sent.filter((r) => r.transactionId === win.transactionId);
    expect(requests.map((r) => [r.operatorId, r.playerId, r.deadLetter])).toEqual([
      ['alpha', 'sched1', 1],
      ['alpha', 'sched1', 1],
    ]);

    const wallet = new ScriptedWallet();
    for (const request of requests) await handleWalletRequest(dispatchContext(deps(wallet)), messageOf(request));
    expect(wallet.calls.map((body) => [body.command, body.transactionId])).toEqual([['win', win.transactionId]]);
    const attempts = (await rig.store.readStream(`walletTx-${win.transactionId}`)).filter(
      (event) => event.type === 'WalletAttempted',
    );
    expect(attempts.at(-1)?.data).toMatchObject({ redrive: true, scheduled: true });
    // Delivered: the scheduler forgets it.
    clock.advance(5 * MINUTE);
    expect((await one.tick()).sent).toBe(0);
  });

  it('goes on from the log after a restart, every 5 minutes after the latest dead letter, and stops after 24 hours', async () => {
    const win = await recordWinSource(rig.store, unsourcedWin('alpha', 'sched2'));
    const failing = new ScriptedWallet(failure);
    await handleWalletRequest(dispatchContext(deps(failing)), messageOf(win));
    const first = scheduler();
    const { sent, consumer } = await watchRedrives('sched-2');
    const mine = () => sent.filter((r) => r.transactionId === win.transactionId);

    clock.advance(5 * MINUTE);
    expect((await first.tick()).sent).toBeGreaterThanOrEqual(1);
    await eventually(() => expect(mine()).toHaveLength(1));
    // The re-drive fails again: dead letter 2, at the clock's now.
    await handleWalletRequest(dispatchContext(deps(failing)), messageOf(mine()[0]));
    expect(failing.calls.filter((body) => body.transactionId === win.transactionId)).toHaveLength(6);

    // A new scheduler (a restart): nothing of the first one's memory, the same schedule.
    const restarted = scheduler();
    clock.advance(4 * MINUTE);
    await restarted.tick();
    expect(mine()).toHaveLength(1);
    clock.advance(MINUTE);
    await restarted.tick();
    await eventually(() => expect(mine()).toHaveLength(2));
    expect(mine()[1]?.deadLetter).toBe(2);

    // A day after the first dead letter, still failing: the schedule is over and the win is counted for the alert.
    clock.advance(24 * 60 * MINUTE);
    await handleWalletRequest(dispatchContext(deps(failing)), messageOf(mine()[1]));
    clock.advance(5 * MINUTE);
    const over = await restarted.tick();
    expect(over.scheduleOver.get('alpha')).toBeGreaterThanOrEqual(1);
    clock.advance(60 * MINUTE);
    await restarted.tick();
    await consumer.stop();
    expect(mine()).toHaveLength(2);
  });
});
