/** Registrations over HTTP for the register, bonus-call and campaign tests: valid bodies, and the two answers to expect. */
import { expect } from '@jest/globals';
import { errorEnvelope, registerBonusCallResponse } from '@reelstream/contracts';
import type { HttpClient } from './http-client.js';

type Body = Record<string, unknown>;

/**
 * A maker of valid Free Spin Bonus bodies, each for a player nobody used yet: platformId
 * `<prefix>-N`, playerId `<playerPrefix>N`; `overrides` replaces fields of the body.
 */
export function freeSpinBodies(prefix: string, playerPrefix: string, base: Body = {}): (overrides?: Body) => Body {
  let players = 0;
  return (overrides = {}) => {
    players += 1;
    return {
      platformId: `${prefix}-${players}`,
      providerId: 1,
      gameId: [101, 102],
      playerId: `${playerPrefix}${players}`,
      bonusType: 1,
      callAmount: 50,
      expireAt: '2026-06-30 23:59:59',
      metaData: { spinAmount: 10, baseBetAmount: 0.2 },
      ...base,
      ...overrides,
    };
  };
}

/** A valid campaign body of `players`: a Free Spin Bonus's terms (5 spins of 10.00 EUR); `overrides` replaces fields. */
export function campaignBody(campaignId: string, players: string[], overrides: Body = {}): Body {
  return {
    campaignId,
    players,
    providerId: 1,
    gameId: [101, 102],
    bonusType: 1,
    callAmount: 50,
    expireAt: '2026-06-30 23:59:59',
    metaData: { spinAmount: 10, baseBetAmount: 0.2 },
    ...overrides,
  };
}

/** Registers `input` expecting 200 OK; the new issueId. */
export async function expectRegistered(client: HttpClient, input: Body): Promise<number> {
  const response = await client.post('/v1/bonus-call/register', input);
  expect({ status: response.status, body: response.body }).toMatchObject({
    status: 200,
    body: { success: true, message: 'OK' },
  });
  return registerBonusCallResponse.parse(response.body).data.issueId;
}

/** Registers `input` expecting the refusal `status` `code` in the spec's envelope, naming `path` if given. */
export async function expectRefused(
  client: HttpClient,
  input: unknown,
  status: number,
  code: string,
  path?: string,
): Promise<void> {
  const response = await client.post('/v1/bonus-call/register', input);
  expect({ status: response.status, code: response.body?.error?.code }).toEqual({ status, code });
  const envelope = errorEnvelope.parse(response.body);
  if (path !== undefined) expect(envelope.error.details?.map((detail) => detail.path)).toContain(path);
}
