/**
 * Signing during a secret rotation (D8): the dispatcher holds two secrets, the current
 * one first; the receiving wallet here knows ONLY the current one, so a dispatcher that signed
 * with the previous secret would see every callback refused. Under both signature schemes, and
 * with a control operator whose secrets are listed the other way round (previous first), which
 * shows that this wallet does refuse a callback signed with the previous secret.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { openEventStore, openMessageBus } from '@reelstream/platform-backends';
import { playerKey, Topics, walletReply, type WalletReply, type WalletRequest } from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { systemClock, type EventStore, type MessageBus } from '@reelstream/platform-ports';
import { createLogger } from '@reelstream/platform-telemetry';
import { recordStakeSource } from '@reelstream/testing';
import {
  operatorDirectory,
  startTestSandbox,
  testOperator,
  type TestSandbox,
} from '../../../sandbox/service/test/test-sandbox.js';
import { startWalletDispatcher, type WalletDispatcher } from '../src/index.js';
import { betRequest } from './rig.js';

const CURRENT = 'rotation-current-secret-0123';
const PREVIOUS = 'rotation-previous-secret-0123';

let sandbox: TestSandbox;
let store: EventStore;
let bus: MessageBus;
let requester: MessageBus;
let dispatcher: WalletDispatcher;

beforeAll(async () => {
  // The wallet's side: only the current secret.
  sandbox = await startTestSandbox('signing-rotation', {
    operators: operatorDirectory([
      testOperator('rotating', CURRENT),
      testOperator('stamped', CURRENT, { signatureScheme: 'timestamp.body' }),
      testOperator('reversed', CURRENT),
    ]),
  });
  // The platform's side: mid-rotation, the current secret first (and the control the other way round).
  const at = (id: string) => ({ callbackUrl: `${sandbox.url}/wallet/${id}` });
  const platformSide = operatorDirectory([
    testOperator('rotating', [CURRENT, PREVIOUS], at('rotating')),
    testOperator('stamped', [CURRENT, PREVIOUS], { ...at('stamped'), signatureScheme: 'timestamp.body' }),
    testOperator('reversed', [PREVIOUS, CURRENT], at('reversed')),
  ]);
  const url = `sqlite:${join(sandbox.dir, 'reelstream.db')}`;
  ({ store } = await openEventStore(url));
  bus = await openMessageBus(url, { instanceId: 'rotation-dispatcher' });
  requester = await openMessageBus(url, { instanceId: 'rotation-requester' });
  dispatcher = await startWalletDispatcher(
    {
      store,
      bus,
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(9),
      logger: createLogger({ service: 'signing-rotation', level: 'silent' }),
      operators: platformSide,
    },
    { healthPort: 0, healthHost: '127.0.0.1', maxSockets: 8 },
  );
  await dispatcher.ready;
}, 30_000);

afterAll(async () => {
  await dispatcher?.stop();
  await Promise.all([bus?.close(), requester?.close()]);
  await store?.close();
  await sandbox?.stop();
});

/** As the game-server sends a bet: its round's RoundStarted stored first. */
async function request(message: WalletRequest): Promise<WalletReply> {
  if (message.command !== 'win') await recordStakeSource(store, message);
  const answer = await requester.request(
    Topics.walletRequests,
    { key: playerKey(message), value: message },
    { replyTopic: Topics.walletReplies, timeoutMs: 20_000 },
  );
  return walletReply.parse(answer.value);
}
const ledger = (operatorId: string, playerId: string) =>
  sandbox.views
    .transactions({ operatorId, playerId })
    .map(({ command, applied, statusCode }) => ({ command, applied, statusCode }));

describe('two secrets on the platform, only the current one at the wallet', () => {
  it('signature over the body: the callback is applied', async () => {
    const bet = betRequest('rotation_player', 700, 'rotating');
    expect(await request(bet)).toEqual({
      transactionId: bet.transactionId,
      statusCode: 'OK',
      balanceMinor: 9_300,
      canceled: false,
    });
    expect(ledger('rotating', 'rotation_player')).toEqual([{ command: 'bet', applied: true, statusCode: 'OK' }]);
    expect(sandbox.views.requests({ transactionId: bet.transactionId }).map((entry) => entry.outcome)).toEqual([
      'applied',
    ]);
  });

  it('signature over timestamp + "." + body: the callback is applied', async () => {
    const bet = betRequest('stamped_player', 250, 'stamped');
    expect(await request(bet)).toEqual({
      transactionId: bet.transactionId,
      statusCode: 'OK',
      balanceMinor: 9_750,
      canceled: false,
    });
    expect(ledger('stamped', 'stamped_player')).toEqual([{ command: 'bet', applied: true, statusCode: 'OK' }]);
  });

  it('control: signed with the previous secret, the same wallet refuses the callback and no money moves', async () => {
    const bet = betRequest('reversed_player', 700, 'reversed');
    const reply = await request(bet);
    expect(reply).toMatchObject({
      transactionId: bet.transactionId,
      statusCode: 'ERR_INTEGRITY_CHECK_FAILED',
      canceled: true,
    });
    expect(sandbox.views.requests({ transactionId: bet.transactionId }).map((entry) => entry.outcome)).toEqual([
      'bad_signature',
    ]);
    expect(sandbox.views.accounts('reversed', 'reversed_player')).toEqual([]);
  });
});
