import { describe, expect, it } from '@jest/globals';
import type { CallbackRequest, OperatorConfig } from '@reelstream/contracts';
import type { OperatorCallResult } from '@reelstream/wallet-domain';
import {
  defaultBulkheadLimits,
  limitsForShare,
  OperatorBulkheadWallet,
  type CircuitChange,
  type OperatorWallet,
} from '../src/index.js';
import { testOperators } from './support/dispatch-rig.js';

const [alpha, beta] = testOperators() as [OperatorConfig, OperatorConfig];

const body = { command: 'bet' } as CallbackRequest;
const ok: OperatorCallResult = { kind: 'reply', statusCode: 'OK', balance: 10 };
const refused: OperatorCallResult = { kind: 'reply', statusCode: 'ERR_NOT_ENOUGH_MONEY', balance: 0 };
const timeout: OperatorCallResult = { kind: 'no_reply', cause: 'timeout', reason: 'no reply within 3000 ms' };

/** A wallet whose answer per operator is set by the test, and whose calls can be held open. */
class ControlledWallet implements OperatorWallet {
  readonly sent: string[] = [];
  /** The time limit each call was sent with. */
  readonly limits: number[] = [];
  answer = new Map<string, OperatorCallResult>();
  hold: Promise<void> | undefined;

  async call(operator: OperatorConfig, _body: CallbackRequest, timeoutMs: number): Promise<OperatorCallResult> {
    this.sent.push(operator.id);
    this.limits.push(timeoutMs);
    if (this.hold) await this.hold;
    return this.answer.get(operator.id) ?? ok;
  }
}

function setup(limits = { maxInFlight: 2, maxQueueWaitMs: 50, failureThreshold: 3, openMs: 1_000 }) {
  let now = 0;
  const inner = new ControlledWallet();
  const changes: CircuitChange[] = [];
  const wallet = new OperatorBulkheadWallet(inner, {
    limitsOf: () => limits,
    now: () => now,
    onCircuitChange: (change) => changes.push(change),
  });
  return { inner, wallet, changes, advance: (ms: number) => (now += ms) };
}

describe('OperatorBulkheadWallet: one compartment per operator', () => {
  it('opens an operator’s circuit after consecutive failures, refuses its calls without sending them, and leaves the other operator alone', async () => {
    const { inner, wallet, changes } = setup();
    inner.answer.set('beta', timeout);
    for (let n = 0; n < 3; n++) expect(await wallet.call(beta, body, 3_000)).toEqual(timeout);
    const refusedCall = await wallet.call(beta, body, 3_000);
    expect(refusedCall).toMatchObject({ kind: 'no_reply', cause: 'unavailable', retryAfterMs: 1_000 });
    expect(inner.sent.filter((id) => id === 'beta')).toHaveLength(3);
    expect(await wallet.call(alpha, body, 3_000)).toEqual(ok);
    expect(wallet.circuitOf('alpha').state).toBe('closed');
    expect(changes).toEqual([{ operatorId: 'beta', from: 'closed', to: 'open', consecutiveFailures: 3 }]);
    expect(wallet.refusingForMs('beta')).toBe(1_000);
    expect(wallet.refusingForMs('alpha')).toBeUndefined();
  });

  it('a bet waits for a slot only while it may still be sent, and the time it waited comes off its time limit', async () => {
    const { inner, wallet, advance } = setup({
      maxInFlight: 1,
      maxQueueWaitMs: 1_000,
      failureThreshold: 3,
      openMs: 1_000,
    });
    let release: () => void = () => undefined;
    inner.hold = new Promise((resolve) => (release = resolve));
    const first = wallet.call(alpha, body, 3_000);
    const queued = performance.now();
    // It could not start in time: refused after 20 ms, not after the queue's 1 s, and never sent.
    expect(await wallet.call(alpha, body, 3_000, 20)).toMatchObject({ kind: 'no_reply', cause: 'unavailable' });
    expect(performance.now() - queued).toBeLessThan(900);
    const second = wallet.call(alpha, body, 3_000, 2_000);
    advance(400);
    inner.hold = undefined;
    release();
    await Promise.all([first, second]);
    expect(inner.sent).toEqual(['alpha', 'alpha']);
    expect(inner.limits).toEqual([3_000, 2_600]);
  });

  it('an operator’s own refusal (a status code) is an answer, not a failure', async () => {
    const { inner, wallet } = setup();
    inner.answer.set('beta', refused);
    for (let n = 0; n < 10; n++) await wallet.call(beta, body, 3_000);
    expect(wallet.circuitOf('beta')).toMatchObject({ state: 'closed', consecutiveFailures: 0 });
  });

  it('after openMs lets one probe through: a failure opens it again, an answer closes it', async () => {
    const { inner, wallet, changes, advance } = setup();
    inner.answer.set('beta', timeout);
    for (let n = 0; n < 3; n++) await wallet.call(beta, body, 3_000);
    advance(999);
    expect(await wallet.call(beta, body, 3_000)).toMatchObject({ cause: 'unavailable' });
    advance(1);
    expect(wallet.circuitOf('beta').state).toBe('half_open');
    expect(await wallet.call(beta, body, 3_000)).toEqual(timeout);
    expect(wallet.circuitOf('beta').state).toBe('open');
    advance(1_000);
    inner.answer.set('beta', ok);
    expect(await wallet.call(beta, body, 3_000)).toEqual(ok);
    expect(wallet.circuitOf('beta').state).toBe('closed');
    expect(changes.map((change) => change.to)).toEqual(['open', 'half_open', 'open', 'half_open', 'closed']);
  });

  it('caps each operator’s calls in flight: one more waits for a slot at most maxQueueWaitMs, then is refused; another operator still gets through', async () => {
    const { inner, wallet } = setup();
    let release: () => void = () => undefined;
    inner.hold = new Promise((resolve) => (release = resolve));
    const held = [wallet.call(beta, body, 3_000), wallet.call(beta, body, 3_000)];
    const started = performance.now();
    expect(await wallet.call(beta, body, 3_000)).toMatchObject({ kind: 'no_reply', cause: 'unavailable' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    expect(wallet.circuitOf('beta').inFlight).toBe(2);
    const alphaCall = wallet.call(alpha, body, 3_000);
    expect(inner.sent).toEqual(['beta', 'beta', 'alpha']);
    // A call queued while the slots are taken goes out as soon as one is free.
    const queued = wallet.call(beta, body, 3_000);
    release();
    expect(await Promise.all([...held, alphaCall, queued])).toEqual([ok, ok, ok, ok]);
    expect(inner.sent).toEqual(['beta', 'beta', 'alpha', 'beta']);
    expect(wallet.circuitOf('beta').inFlight).toBe(0);
  });
});

describe("an operator's limits on one replica of several", () => {
  it('divide its calls in flight by the partitions each replica was given, and leave its circuit as configured', () => {
    const limits = { ...defaultBulkheadLimits, maxInFlight: 64 };
    // 16 partitions over three replicas: 6, 5 and 5.
    const perReplica = [6, 5, 5].map((partitions) => limitsForShare(limits, partitions / 16));
    expect(perReplica.map((each) => each.maxInFlight)).toEqual([24, 20, 20]);
    expect(perReplica.reduce((sum, each) => sum + each.maxInFlight, 0)).toBe(64);
    for (const each of perReplica) expect({ ...each, maxInFlight: 0 }).toEqual({ ...limits, maxInFlight: 0 });
    // A part of a call is a whole call: 10 over 3 replicas of 1/3 each is 4 + 4 + 4.
    expect(limitsForShare({ ...limits, maxInFlight: 10 }, 1 / 3).maxInFlight).toBe(4);
    // Alone: the whole limit.
    expect(limitsForShare(limits, 1).maxInFlight).toBe(64);
  });

  it('keep one call in flight before the replica joined (share 0) and never exceed the whole limit', () => {
    const limits = { ...defaultBulkheadLimits, maxInFlight: 64 };
    expect(limitsForShare(limits, 0).maxInFlight).toBe(1);
    expect(limitsForShare(limits, Number.NaN).maxInFlight).toBe(1);
    expect(limitsForShare(limits, -0.5).maxInFlight).toBe(1);
    expect(limitsForShare(limits, 1.5).maxInFlight).toBe(64);
  });
});
