import { afterAll, afterEach, beforeAll, describe, expect } from '@jest/globals';
import { commitCases } from './commit.contract.js';
import { consumerLagCases } from './consumer-lag.contract.js';
import { ContractHarness } from './contract-harness.js';
import { crashCases } from './crash.contract.js';
import { keyConcurrencyCrashCases } from './key-concurrency-crash.contract.js';
import { deliveryCases } from './delivery.contract.js';
import { keyConcurrencyCases } from './key-concurrency.contract.js';
import { requestReplyCases } from './request-reply.contract.js';
import { shareCases } from './share.contract.js';
import type { MessageBusUnderTest } from './under-test.js';
import type { WorkerProcess } from './worker-process.js';

/**
 * The behaviour every MessageBus adapter promises (docs/architecture.md "Ports and adapters"), run against one back end.
 * `adapter` names the suite before the back end is made (describe titles are synchronous);
 * it must match the `adapter` that `make` returns.
 */
export function describeMessageBusContract(make: () => Promise<MessageBusUnderTest>, adapter = 'adapter'): void {
  describe(`MessageBus contract [${adapter}]`, () => {
    let backend: MessageBusUnderTest | undefined;
    let harness: ContractHarness | undefined;
    const children = new Set<WorkerProcess>();

    beforeAll(async () => {
      backend = await make();
      if (adapter !== 'adapter') expect(backend.adapter).toBe(adapter);
    }, 120_000);

    afterEach(async () => {
      await harness?.closeAll();
      harness = undefined;
    }, 60_000);

    afterAll(async () => {
      // Never leave a worker behind, whatever a test did.
      await Promise.all([...children].map((child) => child.kill('SIGKILL')));
      children.clear();
      await backend?.dispose();
    }, 60_000);

    const current = (): ContractHarness => {
      if (!backend) throw new Error('the back end under test was not made');
      harness ??= new ContractHarness(backend);
      return harness;
    };

    describe('delivery', () => deliveryCases(current));
    describe('commits and redelivery', () => commitCases(current));
    describe('keyConcurrency', () => keyConcurrencyCases(current));
    describe('request/reply', () => requestReplyCases(current));
    describe('consumer lag', () => consumerLagCases(current));
    describe('share of the partitions', () => shareCases(current));
    describe('crash of a consumer process', () => crashCases(current, children));
    describe('crash of a consumer process with keyConcurrency', () => keyConcurrencyCrashCases(current, children));
  });
}
