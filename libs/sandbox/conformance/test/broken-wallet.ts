/**
 * Deliberately broken operator wallets, to show the kit failing for the right reasons.
 * - `broken`: ignores signatures, applies every request again (no idempotency, so a reused id
 *   passes too), lets bets overdraw, credits a betwin's win before checking its bet, refuses
 *   cancels of unknown transactions, refunds only the stake of every cancel, answers betwins late.
 * - `stake_only_cancel`: honest in everything the kit checks except one thing — the cancel of a
 *   betwin gives back the stake and leaves the win credited (what the operator guide once said).
 *   With `signatureScheme: 'timestamp.body'` it verifies that signature but never the timestamp's
 *   age, so it takes a stale replay too.
 * - `float_balance`: honest in everything the kit checks, cancels included, but it keeps balances
 *   as plain JavaScript numbers in currency units, so it answers balances such as 99.89999999999999.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BrokenWallet {
  url: string;
  stop(): Promise<void>;
}

export interface BrokenWalletOptions {
  mode?: 'broken' | 'stake_only_cancel' | 'float_balance';
  betwinDelayMs?: number;
  /** The secret the `stake_only_cancel` wallet verifies signatures with. */
  secret?: string;
  signatureScheme?: 'body' | 'timestamp.body';
}

type Body = Record<string, unknown>;
type Answer = { statusCode: string; delayMs?: number };
/** Balance in cents, so the honest parts do not drift with floating point; in units for `float_balance`. */
type State = { balance: number; float: boolean };

function brokenRules(state: State, options: BrokenWalletOptions): (body: Body) => Answer {
  const bets = new Map<string, number>();
  return (body) => {
    const cents = (key: string) => Math.round(Number(body[key]) * 100);
    switch (body['command']) {
      case 'bet':
        state.balance -= cents('amount');
        bets.set(String(body['transactionId']), cents('amount'));
        return { statusCode: 'OK' };
      case 'win':
        state.balance += cents('amount');
        return { statusCode: 'OK' };
      case 'betwin': {
        state.balance += cents('winAmount');
        bets.set(String(body['transactionId']), cents('betAmount'));
        if (state.balance < cents('betAmount'))
          return { statusCode: 'ERR_NOT_ENOUGH_MONEY', delayMs: options.betwinDelayMs ?? 0 };
        state.balance -= cents('betAmount');
        return { statusCode: 'OK', delayMs: options.betwinDelayMs ?? 0 };
      }
      case 'cancel': {
        const stake = bets.get(String(body['refTransactionId']));
        if (stake === undefined) return { statusCode: 'ERR_UNKNOWN' };
        state.balance += stake;
        return { statusCode: 'OK' };
      }
      default:
        return { statusCode: 'ERR_UNKNOWN' };
    }
  };
}

/**
 * Idempotent, signature-checking, never overdrawing — and reversing only the stake of a betwin,
 * unless it keeps float balances (then a cancel reverses the whole transaction).
 */
function stakeOnlyRules(state: State): (body: Body, raw: Buffer) => Answer {
  const done = new Map<string, { text: string; answer: Answer }>();
  const moved = new Map<string, { stake: number; win: number; canceled: boolean }>();
  const canceledBeforehand = new Set<string>();
  return (body, raw) => {
    const id = String(body['transactionId']);
    const text = raw.toString('utf8').replace(/"timestamp":\d+/, '');
    const previous = done.get(id);
    if (previous) return previous.text === text ? previous.answer : { statusCode: 'ERR_UNKNOWN' };
    const cents = (key: string) => (state.float ? Number(body[key]) : Math.round(Number(body[key]) * 100));
    const answer = ((): Answer => {
      if (body['command'] !== 'cancel' && canceledBeforehand.has(id)) return { statusCode: 'ERR_UNKNOWN' };
      switch (body['command']) {
        case 'bet':
        case 'betwin': {
          const stake = cents(body['command'] === 'bet' ? 'amount' : 'betAmount');
          if (state.balance < stake) return { statusCode: 'ERR_NOT_ENOUGH_MONEY' };
          const won = body['command'] === 'betwin' ? cents('winAmount') : 0;
          state.balance = state.balance - stake + won;
          moved.set(id, { stake, win: won, canceled: false });
          return { statusCode: 'OK' };
        }
        case 'win':
          state.balance += cents('amount');
          return { statusCode: 'OK' };
        case 'cancel': {
          const ref = String(body['refTransactionId']);
          const original = moved.get(ref);
          if (!original) canceledBeforehand.add(ref);
          else if (!original.canceled) {
            original.canceled = true;
            state.balance += original.stake; // the flaw: a betwin's win stays credited…
            if (state.float) state.balance -= original.win; // …except in the float wallet
          }
          return { statusCode: 'OK' };
        }
        default:
          return { statusCode: 'ERR_UNKNOWN' };
      }
    })();
    done.set(id, { text, answer });
    return answer;
  };
}

export async function startBrokenWallet(options: BrokenWalletOptions = {}): Promise<BrokenWallet> {
  const float = options.mode === 'float_balance';
  // 100 − 0.7 − 0.4 + 1 in binary floating point: 99.89999999999999.
  const state: State = float ? { balance: 100 - 0.7 - 0.4 + 1, float } : { balance: 10_000, float };
  const honest = options.mode === 'stake_only_cancel' || float;
  const rules = honest ? stakeOnlyRules(state) : brokenRules(state, options);
  const signedBy = (raw: Buffer, header: string | undefined, timestamp: string | undefined) => {
    const signed =
      options.signatureScheme === 'timestamp.body' ? Buffer.concat([Buffer.from(`${timestamp ?? ''}.`), raw]) : raw;
    return (
      /^[0-9a-f]{64}$/.test(header ?? '') &&
      timingSafeEqual(
        createHmac('sha256', options.secret ?? '')
          .update(signed)
          .digest(),
        Buffer.from(header as string, 'hex'),
      )
    );
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = JSON.parse(raw.toString('utf8')) as Body;
      const answer: Answer =
        honest &&
        !signedBy(
          raw,
          req.headers['x-request-signature'] as string | undefined,
          req.headers['x-request-timestamp'] as string | undefined,
        )
          ? { statusCode: 'ERR_INTEGRITY_CHECK_FAILED' }
          : rules(body, raw);
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const balance = state.float ? state.balance : state.balance / 100;
        res.end(JSON.stringify({ balance, statusCode: answer.statusCode }));
      }, answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/wallet`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
