/** A test client of the sandbox: signed callbacks (D8) and the admin API, over real HTTP. */
import { createHmac } from 'node:crypto';
import got from 'got';
import { encodeCallback, type BetCallback, type CallbackRequest, type CallbackIdEncoding } from '@reelstream/contracts';

export interface SentCallback {
  status: number;
  body: Record<string, unknown>;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

let lastId = 1_000;
/** A transaction or round id no other callback of this test file used. */
export const nextId = (): number => ++lastId;

/** What every callback of a new round of `playerId` carries: fresh transaction and round ids. */
export const newRound = (playerId: string, timestamp = 1_777_000_000) => ({
  transactionId: nextId(),
  playerId,
  roundId: nextId(),
  providerId: 1,
  gameCode: 10,
  bonusId: 0,
  timestamp,
});

/** A bet of `amount` EUR by `playerId` on a new round. */
export const betCallback = (playerId: string, amount = 1, timestamp?: number): BetCallback => ({
  command: 'bet',
  ...newRound(playerId, timestamp),
  currency: 'EUR',
  amount,
  isBonusBusy: false,
});

export function sign(bytes: string, secret: string): string {
  return createHmac('sha256', secret).update(bytes).digest('hex');
}

export async function postCallback(
  url: string,
  callback: CallbackRequest,
  options: { secret: string; encoding?: CallbackIdEncoding; signature?: string },
): Promise<SentCallback> {
  const text = JSON.stringify(encodeCallback(callback, options.encoding ?? 'string'));
  return postRaw(url, text, options.signature ?? sign(text, options.secret));
}

export async function postRaw(
  url: string,
  text: string,
  signature: string | undefined,
  headers: Record<string, string> = {},
): Promise<SentCallback> {
  const response = await got.post(url, {
    body: text,
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...headers,
      ...(signature === undefined ? {} : { 'x-request-signature': signature }),
    },
    throwHttpErrors: false,
    retry: { limit: 0 },
    responseType: 'text',
  });
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(response.body) as Record<string, unknown>;
  } catch {
    body = {};
  }
  return { status: response.statusCode, body, text: response.body, headers: response.headers };
}

export async function admin(
  method: 'GET' | 'PUT' | 'POST' | 'DELETE',
  url: string,
  json?: unknown,
  token?: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await got(url, {
    method,
    ...(json === undefined ? {} : { json }),
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` },
    throwHttpErrors: false,
    retry: { limit: 0 },
    responseType: 'text',
  });
  return {
    status: response.statusCode,
    body: response.body === '' ? {} : (JSON.parse(response.body) as Record<string, unknown>),
  };
}
