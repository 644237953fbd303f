import { expect, it } from '@jest/globals';
import { runScenario } from './support/scenario.js';

it('runs', async () => {
  const result = await runScenario();
  console.log(JSON.stringify({ ...result, ledger: result.ledger.length }, null, 1));
  expect(result.roundIds.length).toBeGreaterThan(10);
}, 120_000);
