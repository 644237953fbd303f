/**
 * The launch host's routes: `GET /launch?token=` (the game page, or a clear error page), the
 * player API of D23 under `/api`, the page's assets, and the health probes.
 */
import { resolve } from 'node:path';
import { isRefusal, longIdText, ok, RefusedError, spinRequest, type OperatorConfig } from '@reelstream/contracts';
import type { EventStore } from '@reelstream/platform-ports';
import express, { type ErrorRequestHandler, type Express } from 'express';
import type {
  BalanceBook,
  GameTable,
  PlayerBonusPort,
  RoundStreams,
  SessionRepository,
  SpinService,
} from '@reelstream/game-application';
import { roundView } from '../rounds/round-view.js';
import { sessionView } from '../sessions/session-view.js';
import { launchErrorPage } from './launch-error-page.js';
import { healthEndpoints } from '@reelstream/platform-http';
import { requestIdOf } from './request-id.js';
import { setContentSecurityPolicy } from './security-headers.js';

/** The game page and its assets, shipped beside the sources. */
const PUBLIC_DIR = resolve(import.meta.dirname, '../../public');

export interface RouteDeps {
  store: EventStore;
  sessions: SessionRepository;
  table: GameTable;
  bonus: PlayerBonusPort;
  balances: BalanceBook;
  rounds: RoundStreams;
  spins: SpinService;
  operators?: { get(id: string): OperatorConfig | undefined } | undefined;
  ready(): boolean;
}

export function healthRoutes(app: Express, deps: Pick<RouteDeps, 'store' | 'ready'>): void {
  app.use(
    healthEndpoints(async () => {
      if (!deps.ready()) return { ready: false, status: 'draining' };
      try {
        await deps.store.streamRevision('gameServerReadinessProbe-0');
        return { ready: true };
      } catch {
        return { ready: false, status: 'unavailable', detail: { reason: 'the event store does not answer' } };
      }
    }),
  );
}

export function launchRoute(app: Express, deps: Pick<RouteDeps, 'sessions' | 'operators'>): void {
  app.get('/launch', async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const token = typeof req.query['token'] === 'string' ? req.query['token'] : '';
    const session = await deps.sessions.find(token);
    if (!session) return void res.status(404).type('html').send(launchErrorPage('not_found'));
    setContentSecurityPolicy(res, deps.operators?.get(session.operatorId)?.allowedReturnOrigins ?? []);
    const playable = await deps.sessions.playable(token);
    if (isRefusal(playable) && playable.code === 'SESSION_EXPIRED')
      return void res.status(410).type('html').send(launchErrorPage('expired', session));
    if (isRefusal(playable)) throw RefusedError.from(playable);
    res.sendFile(resolve(PUBLIC_DIR, 'index.html'));
  });
  app.use('/assets', express.static(PUBLIC_DIR, { index: false, maxAge: '1h', fallthrough: false }), assetNotFound);
}

/**
 * What `send` refuses under /assets (403 for a path with `..`, 400 for one it cannot decode, 404
 * for a missing file) is a file the page does not have: 404, not a fault of ours.
 */
const assetNotFound: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
  // Ours (a rate limit before the assets) stays what it is.
  if (error instanceof RefusedError) return next(error);
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : undefined;
  next(typeof status === 'number' && status >= 400 && status < 500 ? new RefusedError('ROUTE_NOT_FOUND') : error);
};

export function playerApiRoutes(app: Express, deps: RouteDeps): void {
  const api = express.Router();
  api.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  api.get('/sessions/:token', async (req, res) => {
    res.json(ok(await sessionView(deps, req.params.token)));
  });
  api.post('/sessions/:token/spin', express.json({ limit: '4kb' }), async (req, res) => {
    if (!req.is('application/json')) throw new RefusedError('UNSUPPORTED_MEDIA_TYPE');
    const body = spinRequest.parse(req.body);
    res.json(ok(await deps.spins.spin(req.params.token, body, requestIdOf(res))));
  });
  api.get('/sessions/:token/rounds/:roundId', async (req, res) => {
    const roundId = longIdText.safeParse(req.params.roundId);
    if (!roundId.success) throw new RefusedError('ROUND_NOT_FOUND');
    res.json(ok(await roundView(deps.rounds, deps.sessions, req.params.token, roundId.data)));
  });
  app.use('/api', api);
}
