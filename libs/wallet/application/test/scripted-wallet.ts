/**
 * An operator wallet for use-case tests: a real implementation of the OperatorWallet port whose
 * answers are scripted per call, recording every body it was sent. (Tests with a real HTTP
 * wallet are in the dispatcher service; this layer is tested without HTTP.)
 */
import type { CallbackRequest, OperatorConfig } from '@reelstream/contracts';
import type { OperatorWallet } from '../src/index.js';
import type { OperatorCallResult } from '@reelstream/wallet-domain';

export class ScriptedWallet implements OperatorWallet {
  readonly calls: CallbackRequest[] = [];
  /** The time limit each call was given, in the order of `calls`. */
  readonly limitsMs: number[] = [];
  private readonly script: (OperatorCallResult | (() => Promise<OperatorCallResult>))[] = [];

  constructor(private readonly fallback: OperatorCallResult = { kind: 'reply', statusCode: 'OK', balance: 100 }) {}

  then(...answers: (OperatorCallResult | (() => Promise<OperatorCallResult>))[]): this {
    this.script.push(...answers);
    return this;
  }

  async call(_operator: OperatorConfig, body: CallbackRequest, timeoutMs: number): Promise<OperatorCallResult> {
    this.calls.push(body);
    this.limitsMs.push(timeoutMs);
    const next = this.script.shift() ?? this.fallback;
    return typeof next === 'function' ? next() : next;
  }
}
