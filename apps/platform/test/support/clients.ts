/**
 * The three parties of the e2e suite, each over HTTP only: the operator (API v1 on the gateway),
 * the player (the launch host's player API, D23) and the operator's wallet (the sandbox's admin API).
 */
import { formatLocalDateTime, wallClockAt } from '@reelstream/contracts';

export interface JsonResponse {
  status: number;
  headers: Headers;
  // The suite reads fields of many shapes; each test asserts the ones it needs.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export async function call(
  method: string,
  url: string,
  options: { token?: string; json?: unknown; timeoutMs?: number } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers['authorization'] = `Bearer ${options.token}`;
  if (options.json !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(url, {
    method,
    headers,
    ...(options.timeoutMs === undefined ? {} : { signal: AbortSignal.timeout(options.timeoutMs) }),
    ...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON (the game page): the text is the body.
  }
  return { status: response.status, headers: response.headers, body };
}

export function expectOk(response: JsonResponse, what: string): JsonResponse {
  if (response.status !== 200) throw new Error(`${what}: HTTP ${response.status} ${JSON.stringify(response.body)}`);
  return response;
}

export interface OperatorAccount {
  id: string;
  token: string;
  currency: string;
  timeZone: string;
}

export interface FreeSpinBonus {
  playerId: string;
  spins: number;
  baseBet?: number;
  callAmount?: number;
  gameId?: number;
  /** Default a day ahead. */
  expireAt?: Date;
}

let platformIds = 0;

export class OperatorClient {
  constructor(
    private readonly gatewayUrl: () => string,
    readonly account: OperatorAccount,
  ) {}

  /** `YYYY-MM-DD HH:mm:ss` on the operator's wall clock (D5), rounded up to the next whole second. */
  wallClock(instant: Date): string {
    return formatLocalDateTime(wallClockAt(Math.ceil(instant.getTime() / 1_000) * 1_000, this.account.timeZone));
  }

  register(bonus: FreeSpinBonus): Promise<JsonResponse> {
    platformIds += 1;
    return call('POST', `${this.gatewayUrl()}/v1/bonus-call/register`, {
      token: this.account.token,
      json: {
        platformId: `e2e-${bonus.playerId}-${platformIds}`,
        providerId: 1,
        gameId: bonus.gameId ?? 101,
        playerId: bonus.playerId,
        bonusType: 1,
        // A cap far above what a few spins can win, unless the test is about the cap.
        callAmount: bonus.callAmount ?? 500,
        expireAt: this.wallClock(bonus.expireAt ?? new Date(Date.now() + 86_400_000)),
        metaData: { spinAmount: bonus.spins, baseBetAmount: bonus.baseBet ?? 0.2 },
      },
    });
  }

  async registerFreeSpins(bonus: FreeSpinBonus): Promise<number> {
    return Number(expectOk(await this.register(bonus), 'register').body.data.issueId);
  }

  cancel(issueId: number): Promise<JsonResponse> {
    return call('POST', `${this.gatewayUrl()}/v1/bonus-call/cancel`, { token: this.account.token, json: { issueId } });
  }

  bonus(issueId: number): Promise<JsonResponse> {
    return call('GET', `${this.gatewayUrl()}/v1/bonus-call/${issueId}`, { token: this.account.token });
  }

  /** Any GET of the operator API (the reconciliation reads), with the operator's token. */
  get(path: string): Promise<JsonResponse> {
    return call('GET', `${this.gatewayUrl()}${path}`, { token: this.account.token });
  }

  /** POST /v1/game/launch; the session token of the launch URL. The catalogue's games 2xx are provider 2's. */
  async launch(playerId: string, gameId = 101): Promise<string> {
    const response = expectOk(
      await call('POST', `${this.gatewayUrl()}/v1/game/launch`, {
        token: this.account.token,
        json: {
          playerId,
          providerId: gameId >= 200 ? 2 : 1,
          gameId,
          language: 'en',
          returnUrl: 'https://casino.example/lobby',
          isStreamer: false,
        },
      }),
      'launch',
    );
    const token = new URL(String(response.body.data)).searchParams.get('token');
    if (!token) throw new Error(`launch URL without a token: ${String(response.body.data)}`);
    return token;
  }
}

export class PlayerClient {
  constructor(
    private readonly gameUrl: () => string,
    readonly token: string,
  ) {}

  session(): Promise<JsonResponse> {
    return call('GET', `${this.gameUrl()}/api/sessions/${this.token}`);
  }

  spin(body: Record<string, unknown> = {}): Promise<JsonResponse> {
    return call('POST', `${this.gameUrl()}/api/sessions/${this.token}/spin`, { json: body });
  }

  round(roundId: number): Promise<JsonResponse> {
    return call('GET', `${this.gameUrl()}/api/sessions/${this.token}/rounds/${roundId}`);
  }
}

export interface SandboxTransaction {
  transactionId: number;
  command: 'bet' | 'win' | 'betwin' | 'cancel';
  playerId: string;
  roundId: number;
  debitMinor: number;
  creditMinor: number;
  refTransactionId: number | null;
  statusCode: string;
  applied: boolean;
  canceledBy: number | null;
  cancelEffect: string | null;
}

export class SandboxAdmin {
  constructor(
    private readonly sandboxUrl: () => string,
    private readonly operatorId: string,
  ) {}

  async setBalance(playerId: string, balance: number, currency = 'EUR'): Promise<void> {
    expectOk(
      await call('PUT', `${this.sandboxUrl()}/admin/players/${this.operatorId}/${playerId}`, {
        json: { currency, balance },
      }),
      'set balance',
    );
  }

  async balanceMinor(playerId: string, currency = 'EUR'): Promise<number> {
    const response = expectOk(
      await call('GET', `${this.sandboxUrl()}/admin/players/${this.operatorId}/${playerId}`),
      'balance',
    );
    const account = (response.body.accounts as { currency: string; balanceMinor: number }[]).find(
      (entry) => entry.currency === currency,
    );
    if (!account) throw new Error(`${playerId} has no ${currency} account`);
    return account.balanceMinor;
  }

  async transactions(playerId: string): Promise<SandboxTransaction[]> {
    const response = expectOk(
      await call('GET', `${this.sandboxUrl()}/admin/transactions?operatorId=${this.operatorId}&playerId=${playerId}`),
      'transactions',
    );
    return response.body.transactions as SandboxTransaction[];
  }
}
