import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import type { DataPoint, Histogram } from '@opentelemetry/sdk-metrics';
import { openMessageBus } from '@reelstream/platform-backends';
import { OperatorDirectory } from '@reelstream/platform-config';
import { parseOperatorsConfig, Topics, type CallbackRequest } from '@reelstream/contracts';
import { createMetrics, MetricNames } from '@reelstream/platform-telemetry';
import { installCollectingMeter } from '@reelstream/testing';
import type { OperatorWallet } from '@reelstream/wallet-application';
import { testOperator } from '../../../sandbox/service/test/test-sandbox.js';
import { countDeadLetters, measuredWallet } from '../src/wallet-metrics.js';

const meter = installCollectingMeter();
const dir = mkdtempSync(join(tmpdir(), 'wallet-metrics-'));
afterAll(async () => {
  await meter.uninstall();
  rmSync(dir, { recursive: true, force: true });
});

const points = <T>(name: string): Promise<DataPoint<T>[]> => meter.points<T>(name);

const operators = new OperatorDirectory(parseOperatorsConfig([testOperator('op-a', 'secret-0123456789abcdef')]));
const opA = operators.get('op-a');
if (!opA) throw new Error('op-a not configured');

describe('wallet dispatcher metrics', () => {
  it('counts and times every callback attempt by operator, command and outcome', async () => {
    const answers = [
      { kind: 'reply', statusCode: 'OK', balance: 10 },
      { kind: 'no_reply', cause: 'timeout', reason: 'no answer in 3 s' },
    ] as const;
    let next = 0;
    const wallet: OperatorWallet = { call: () => Promise.resolve(answers[next++ % answers.length] ?? answers[0]) };
    const measured = measuredWallet(wallet, createMetrics('wallet-metrics-test'));
    const body = { command: 'bet' } as CallbackRequest;
    await measured.call(opA, body, 3_000);
    await measured.call(opA, body, 3_000);
    await measured.call(opA, body, 3_000);

    const calls = await points<number>(MetricNames.walletCallbacks);
    expect(calls.map((point) => [point.attributes, point.value])).toEqual(
      expect.arrayContaining([
        [{ operator: 'op-a', command: 'bet', outcome: 'OK' }, 2],
        [{ operator: 'op-a', command: 'bet', outcome: 'timeout' }, 1],
      ]),
    );
    const durations = await points<Histogram>(MetricNames.walletCallbackDuration);
    expect(durations).toHaveLength(1);
    expect(durations[0]?.attributes).toEqual({ operator: 'op-a', command: 'bet' });
    expect(durations[0]?.value.count).toBe(3);
  });

  it('counts dead letters published by operator and command, zero for every configured operator from the start', async () => {
    const bus = await openMessageBus(`sqlite:${join(dir, 'bus.db')}`, { instanceId: 'wallet-metrics-test' });
    try {
      const counted = countDeadLetters(bus, createMetrics('wallet-metrics-test'), operators);
      const deadLetterCounts = async () =>
        (await points<number>(MetricNames.walletDeadLetters)).map((point) => [point.attributes, point.value]);
      expect(await deadLetterCounts()).toEqual([[{ operator: 'op-a', command: 'win' }, 0]]);

      const letter = (operatorId: string) => ({
        key: `${operatorId}:p1`,
        value: { operatorId, transactionId: 1, request: { command: 'win' } },
        headers: {},
      });
      await counted.publish(Topics.walletDeadLetters, [letter('op-a'), letter('someone-else')]);
      await counted.publish(Topics.walletRequests, letter('op-a'));

      // An operator id read from a message that is not configured does not become a label value.
      expect(await deadLetterCounts()).toEqual(
        expect.arrayContaining([
          [{ operator: 'op-a', command: 'win' }, 1],
          [{ operator: 'unknown', command: 'win' }, 1],
        ]),
      );
      expect(await deadLetterCounts()).toHaveLength(2);
    } finally {
      await bus.close();
    }
  });
});
