/**
 * The sandbox's admin API, for tests, the e2e suite and demos:
 * - `GET /admin/players/:operatorId/:playerId` — balances; `PUT` {currency, balance} sets one;
 *   `POST …/deposits` {currency, amount} adds to one (amounts in currency units);
 * - `GET /admin/transactions?operatorId&playerId&transactionId&afterSeq&limit` — the ledger;
 * - `GET /admin/transactions.csv?operatorId=…` — one operator's ledger as the CSV `reelstream reconcile` reads;
 * - `GET /admin/requests?…` — every callback received, in arrival order, with what became of it;
 * - `GET|POST|DELETE /admin/faults`, `DELETE /admin/faults/:id` — fault injection.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { currencyCode, operatorId, playerId, ReelstreamError, type ErrorDetail } from '@reelstream/contracts';
import { tryParseAmount } from '@reelstream/money';
import * as z from 'zod';
import type { FaultRegistry } from './faults.js';
import { ledgerCsv } from './ledger-export.js';
import type { LedgerFilter, LedgerViews } from '@reelstream/sandbox-adapters';

export interface AdminRouteDeps {
  views: LedgerViews;
  faults: FaultRegistry;
  /** When set, every admin call needs `Authorization: Bearer <token>`. */
  adminToken?: string | undefined;
}

const playerParams = z.object({ operatorId, playerId });
const balanceBody = z.strictObject({ currency: currencyCode, balance: z.number() });
const depositBody = z.strictObject({ currency: currencyCode, amount: z.number() });
const ledgerQuery = z.strictObject({
  operatorId: operatorId.optional(),
  playerId: playerId.optional(),
  transactionId: z.coerce.number().int().positive().optional(),
  afterSeq: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().positive().max(100_000).optional(),
});

/** An admin request this sandbox cannot read: answered 400, not retriable. */
class BadRequest extends ReelstreamError {
  override readonly name = 'BadRequest';
  constructor(details: readonly ErrorDetail[]) {
    super('VALIDATION_FAILED', 'bad request', { details, retriable: false });
  }
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success)
    throw new BadRequest(result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })));
  return result.data;
}

function minor(amount: number, currency: string): number {
  const result = tryParseAmount(amount, currency);
  if (!result.ok) throw new BadRequest([{ path: 'amount', message: result.error.message }]);
  return result.minor;
}

function filterOf(query: z.infer<typeof ledgerQuery>): LedgerFilter {
  return Object.fromEntries(Object.entries(query).filter(([, value]) => value !== undefined)) as LedgerFilter;
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Whether the Authorization header carries the admin token. Compared as fixed-length digests in
 * constant time, so neither the time taken nor the length of a guess tells how close it was.
 */
export function adminTokenMatches(authorization: string | undefined, adminToken: string): boolean {
  return timingSafeEqual(digest(authorization ?? ''), digest(`Bearer ${adminToken}`));
}

// Long because: the admin endpoints of one router, a few lines each; the function reads as the list of its routes.
export function adminRouter(deps: AdminRouteDeps): Router {
  const router = express.Router();
  // The token first: a caller without it never gets as far as having its body read.
  router.use(
    '/admin',
    (req: Request, res: Response, next: NextFunction) => {
      if (deps.adminToken === undefined || adminTokenMatches(req.get('authorization'), deps.adminToken)) return next();
      res.status(401).json({ error: 'admin token required' });
    },
    express.json({ limit: '64kb' }),
  );

  /** A player's accounts as every player route answers them. */
  const playerAnswer = (operator: string, player: string, accounts: ReturnType<LedgerViews['accounts']>) => ({
    operatorId: operator,
    playerId: player,
    accounts,
  });
  router.get('/admin/players/:operatorId/:playerId', (req, res) => {
    const { operatorId: operator, playerId: player } = parse(playerParams, req.params);
    const accounts = deps.views.accounts(operator, player);
    if (accounts.length === 0)
      return void res.status(404).json({ error: `player ${player} of operator ${operator} has no account` });
    res.json(playerAnswer(operator, player, accounts));
  });
  router.put('/admin/players/:operatorId/:playerId', (req, res) => {
    const { operatorId: operator, playerId: player } = parse(playerParams, req.params);
    const { currency, balance } = parse(balanceBody, req.body);
    const accounts = deps.views.setBalance(operator, player, currency, minor(balance, currency));
    res.json(playerAnswer(operator, player, accounts));
  });
  router.post('/admin/players/:operatorId/:playerId/deposits', (req, res) => {
    const { operatorId: operator, playerId: player } = parse(playerParams, req.params);
    const { currency, amount } = parse(depositBody, req.body);
    const accounts = deps.views.deposit(operator, player, currency, minor(amount, currency));
    res.json(playerAnswer(operator, player, accounts));
  });

  router.get(
    '/admin/transactions',
    (req, res) => void res.json({ transactions: deps.views.transactions(filterOf(parse(ledgerQuery, req.query))) }),
  );
  // The operator's own export: one operator's books, whole, never mixed with another's.
  router.get('/admin/transactions.csv', (req, res) => {
    const { operatorId: operator } = parse(z.strictObject({ operatorId }), req.query);
    res.type('text/csv').send(ledgerCsv(deps.views.transactions({ operatorId: operator })));
  });
  router.get(
    '/admin/requests',
    (req, res) => void res.json({ requests: deps.views.requests(filterOf(parse(ledgerQuery, req.query))) }),
  );

  router.get('/admin/faults', (_req, res) => void res.json({ faults: deps.faults.list() }));
  router.post('/admin/faults', (req, res) => {
    try {
      res.status(201).json(deps.faults.add(req.body as never));
    } catch (error) {
      if (error instanceof z.ZodError)
        throw new BadRequest(error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })));
      throw error;
    }
  });
  router.delete('/admin/faults', (_req, res) => {
    deps.faults.clear();
    res.status(204).end();
  });
  router.delete('/admin/faults/:id', (req, res) => {
    const id = parse(z.coerce.number().int().positive(), req.params.id);
    res.status(deps.faults.remove(id) ? 204 : 404).end();
  });

  router.use('/admin', (error: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (error instanceof BadRequest) return void res.status(400).json({ error: 'bad request', details: error.details });
    if ((error as { type?: string }).type === 'entity.parse.failed')
      return void res.status(400).json({ error: 'the body is not JSON' });
    next(error);
  });
  return router;
}
