/**
 * A resend stays idempotent whatever changed (D17), on the platform as `npm start` runs it: a bonus
 * call registered, its expireAt let pass (the ledger expires it), then the same request sent again
 * answers the same issueId with `Idempotent-Replayed: true`, and another body under the platformId
 * 409; then the platform stopped and started again on the same data with the operator's limits
 * lowered (OPERATORS_JSON), where the same request still answers its issueId while a new platformId
 * with the same terms meets today's limit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { DEMO_OPERATOR } from '@reelstream/platform-config';
import { eventually } from '@reelstream/testing';
import { call, OperatorClient, type JsonResponse } from './support/clients.js';
import { oneProcess, type RunningPlatform } from './support/topologies.js';

jest.setTimeout(180_000);

let dataDir: string;
let platform: RunningPlatform | undefined;
const running = (): RunningPlatform => {
  if (!platform) throw new Error('the platform did not start');
  return platform;
};

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'reelstream-resend-'));
  platform = await oneProcess.start(dataDir);
}, 120_000);

afterAll(async () => {
  if (platform) await platform.stop('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const register = (body: Record<string, unknown>): Promise<JsonResponse> =>
  call('POST', `${running().gatewayUrl}/v1/bonus-call/register`, { token: DEMO_OPERATOR.apiToken, json: body });

function expectReplayOf(response: JsonResponse, issueId: number): void {
  expect({ status: response.status, body: response.body }).toEqual({
    status: 200,
    body: { success: true, message: 'OK', data: { issueId } },
  });
  expect(response.headers.get('idempotent-replayed')).toBe('true');
}

describe('npm start: a registration sent again', () => {
  it('after its expireAt passed, and after a restart with lower limits, answers its issueId; another body 409', async () => {
    const operator = new OperatorClient(() => running().gatewayUrl, running().operator);
    const body = {
      platformId: 'resend-e2e-1',
      providerId: 1,
      gameId: 101,
      playerId: 'resend_e2e_player',
      bonusType: 1,
      callAmount: 50,
      // A few seconds ahead on the operator's wall clock, so it passes while the test waits.
      expireAt: operator.wallClock(new Date(Date.now() + 3_000)),
      metaData: { spinAmount: 5, baseBetAmount: 0.2 },
    };
    const registered = await register(body);
    expect(registered.status).toBe(200);
    expect(registered.headers.get('idempotent-replayed')).toBeNull();
    const issueId = Number(registered.body.data.issueId);

    // The bonus-ledger expires it once expireAt has passed: the request's expireAt is now in the past.
    await eventually(async () => expect((await operator.bonus(issueId)).body.data.status).toBe('expired'), 30_000);
    expectReplayOf(await register(body), issueId);
    const conflict = await register({ ...body, callAmount: 51 });
    expect({ status: conflict.status, code: conflict.body.error?.code }).toEqual({
      status: 409,
      code: 'PLATFORM_ID_CONFLICT',
    });
    const fresh = await register({ ...body, platformId: 'resend-e2e-2' });
    expect({ status: fresh.status, code: fresh.body.error?.code }).toEqual({ status: 422, code: 'EXPIRE_AT_IN_PAST' });

    // The operator's configuration changes between two starts: callAmount 50 is above the new limit.
    expect(await running().stop('SIGTERM')).toEqual([0]);
    platform = undefined;
    const lowered = {
      id: DEMO_OPERATOR.id,
      name: DEMO_OPERATOR.name,
      apiToken: DEMO_OPERATOR.apiToken,
      signingSecret: DEMO_OPERATOR.signingSecret,
      currency: DEMO_OPERATOR.currency,
      timeZone: DEMO_OPERATOR.timeZone,
      callbackUrl: 'http://127.0.0.1:9/wallet/demo',
      limits: { EUR: { maxCallAmount: 10 } },
    };
    platform = await oneProcess.start(dataDir, { env: { OPERATORS_JSON: JSON.stringify([lowered]) } });
    expectReplayOf(await register(body), issueId);
    const refused = await register({ ...body, platformId: 'resend-e2e-3' });
    expect({ status: refused.status, code: refused.body.error?.code }).toEqual({
      status: 422,
      code: 'CALL_AMOUNT_LIMIT_EXCEEDED',
    });
    const stillConflict = await register({ ...body, callAmount: 5 });
    expect({ status: stillConflict.status, code: stillConflict.body.error?.code }).toEqual({
      status: 409,
      code: 'PLATFORM_ID_CONFLICT',
    });
  });
});
