import { afterAll, afterEach, beforeAll, describe, expect } from '@jest/globals';
import { appendCases } from './append.contract.js';
import { catchUpCases } from './catch-up.contract.js';
import type { ChildWorker } from './child-worker.js';
import { concurrencyCases } from './concurrency.contract.js';
import { EventStoreHarness } from './harness.js';
import { processCases } from './processes.contract.js';
import { readCases } from './read.contract.js';
import { subscribeCases } from './subscribe.contract.js';
import type { EventStoreUnderTest } from './under-test.js';

/**
 * The behaviour every EventStore adapter promises (docs/architecture.md "Ports and adapters"), run against one back end. Safe
 * on a shared, long-lived server: each test writes under its own random stream-id prefix and
 * reads $all only through it. `adapter` names the suite before the back end is made (describe
 * titles are registered synchronously); it must match the `adapter` that `make` returns.
 */
export function describeEventStoreContract(make: () => Promise<EventStoreUnderTest>, adapter = 'adapter'): void {
  describe(`EventStore contract [${adapter}]`, () => {
    let backend: EventStoreUnderTest | undefined;
    let harness: EventStoreHarness | undefined;
    const children = new Set<ChildWorker>();

    beforeAll(async () => {
      backend = await make();
      if (adapter !== 'adapter') expect(backend.adapter).toBe(adapter);
    }, 120_000);

    afterEach(async () => {
      await Promise.all([...children].map((child) => child.kill()));
      await harness?.closeAll();
      harness = undefined;
    }, 60_000);

    afterAll(async () => {
      // Never leave a worker behind, whatever a test did.
      await Promise.all([...children].map((child) => child.kill()));
      await backend?.dispose();
    }, 60_000);

    const current = (): EventStoreHarness => {
      if (!backend) throw new Error('the back end under test was not made');
      harness ??= new EventStoreHarness(backend);
      return harness;
    };

    describe('appending', () => appendCases(current));
    describe('reading', () => readCases(current));
    describe('subscribing to $all', () => subscribeCases(current));
    describe('checkpointed catch-up (startCatchUp)', () => catchUpCases(current));
    describe('concurrency', () => concurrencyCases(current));
    describe('separate processes', () => processCases(current, children));
  });
}
