/**
 * A registration is refused the same way by the gateway's early answer and by the registration
 * use case, the authority. Each bad registration of the table is sent over HTTP, and the data it
 * stands for is decided past the gateway's check in the ledger's process (as its campaign worker
 * decides each player's registration); both answers carry the same code, message and details. The
 * gateway and the ledger share one manual clock, so "now" is the same instant.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { errorEnvelope, refusal, registerBonusCallData, registerBonusCallRequest } from '@reelstream/contracts';
import { CatalogView } from '../src/catalog/catalog-view.js';
import { registerCommandData } from '../src/bonus/register-command.js';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { OPERATOR_IDS, TOKENS } from './support/operators.js';
import { freeSpinBodies } from './support/registrations.js';
import { startStack, type Stack } from './support/stack.js';

let stack: Stack;
const catalog = new CatalogView(loadCatalogFile());

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.close();
});

type Tenant = keyof typeof TOKENS;

const freeSpin = freeSpinBodies('refusal', 'refusal_player_');

function regular(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const { metaData: _none, ...body } = freeSpin({ bonusType: 2, ...overrides });
  return body;
}

const table: [string, Tenant, Record<string, unknown>, string, number][] = [
  ['a currency the operator does not use', 'a', freeSpin({ currency: 'USD' }), 'CURRENCY_NOT_ALLOWED', 1],
  ['bonusType 2 without the feature (D3)', 'a', regular(), 'BONUS_TYPE_UNAVAILABLE', 1],
  ['an unknown provider', 'a', freeSpin({ providerId: 99 }), 'PROVIDER_NOT_FOUND', 1],
  ['two unknown games among three, each named', 'a', freeSpin({ gameId: [999, 101, 998] }), 'GAME_NOT_FOUND', 2],
  ['one unknown game given alone', 'b', regular({ gameId: 999, providerId: 2 }), 'GAME_NOT_FOUND', 1],
  ['a game of another provider (D4)', 'a', freeSpin({ gameId: [101, 201] }), 'GAME_NOT_OF_PROVIDER', 1],
  [
    'a game without free spins for bonusType 1',
    'a',
    freeSpin({ providerId: 2, gameId: [201, 203] }),
    'FREE_SPINS_NOT_SUPPORTED',
    1,
  ],
  ['a base bet one game does not offer', 'a', freeSpin({ gameId: [101, 103] }), 'BET_LEVEL_NOT_AVAILABLE', 2],
  ['callAmount above the default limit', 'c', freeSpin({ callAmount: 10_000.01 }), 'CALL_AMOUNT_LIMIT_EXCEEDED', 1],
  ['expireAt long past', 'a', freeSpin({ expireAt: '2020-01-01 00:00:00' }), 'EXPIRE_AT_IN_PAST', 1],
  ['expireAt now itself', 'a', freeSpin({ expireAt: '2026-05-01 00:00:00' }), 'EXPIRE_AT_IN_PAST', 1],
  ['expireAt past in Seoul', 'b', regular({ expireAt: '2026-05-01 08:59:59' }), 'EXPIRE_AT_IN_PAST', 1],
];

describe('a registration is refused once: the gateway answers what the ledger decides', () => {
  it.each(table)('%s: tenant %s', async (_rule, tenant, input, code, detailCount) => {
    const response = await stack.http.withToken(TOKENS[tenant]).post('/v1/bonus-call/register', input);
    expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status: 422, code });
    const answered = errorEnvelope.parse(response.body);
    expect(answered.error.details).toHaveLength(detailCount);

    const operator = stack.operators.get(OPERATOR_IDS[tenant]);
    if (operator === undefined) throw new Error(`no operator ${OPERATOR_IDS[tenant]}`);
    const data = registerCommandData(registerBonusCallRequest.parse(input), {
      operator,
      catalog,
      now: stack.clock.now(),
    });
    const decided = await stack.ledgerCommands.register(registerBonusCallData.parse(data), {
      commandId: `refusal-${data.platformId}`,
      correlationId: `refusal-${data.platformId}`,
      operatorId: data.operatorId,
    });
    expect(decided).toEqual(refusal(answered.error.code, answered.message, { details: answered.error.details }));
    expect(answered.error.code).toBe(code);
  });
});
