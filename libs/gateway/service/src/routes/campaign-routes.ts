/**
 * `/v1/bonus-call/campaigns…` (docs/adr/0010-campaigns.md). The POST validates the
 * whole request as a single registration is validated, stores the campaign on its stream and
 * answers 202; the bonus-ledger's campaign worker registers the players. The GET folds the
 * campaign's stream. The stream names the operator of the token, so another operator's campaign
 * reads as absent: the same 404 as an id never used. A new campaign of N players takes N tokens of
 * the operator's campaign budget (docs/adr/0014-fair-campaigns-and-campaign-budget.md): without them it
 * is 429 RATE_LIMITED with Retry-After and nothing is stored; a resend or a conflict gives them back.
 */
import { campaignProgressOf, campaignResend, loadCampaign, startCampaign } from '@reelstream/bonus-application';
import {
  ApiOperations,
  campaignPlatformId,
  HttpHeaders,
  isRefusal,
  ok,
  type StartCampaignRequest,
  RefusedError,
} from '@reelstream/contracts';
import { TokenBucketLimiter, type RateLimitConfig } from '@reelstream/platform-http';
import type { Clock, EventStore } from '@reelstream/platform-ports';
import type { Express, RequestHandler, Response } from 'express';
import { toRegisterCommandData, type RegisterContext } from '../bonus/register-command.js';
import type { CatalogView } from '../catalog/catalog-view.js';
import { rateLimitForShare } from '../http/limit-share.js';
import { DEFAULT_CAMPAIGN_RATE_LIMIT } from '../http/rate-limit.js';
import { callerOf, requestContext } from '../http/request-context.js';
import { sendOk } from '../http/respond.js';
import { nonEmptyQuery, parseRequest } from '../http/validate.js';
import { expressPath } from './bonus-call-routes.js';

export interface CampaignRouteDeps {
  store: EventStore;
  catalog: CatalogView;
  clock: Clock;
  /** Content type and body parsing, with a limit that fits 10,000 playerIds. */
  jsonBody: RequestHandler[];
  /** Each operator's budget of campaign players, over all gateway pods. Default `DEFAULT_CAMPAIGN_RATE_LIMIT`. */
  campaignRateLimit?: RateLimitConfig;
  /** This pod's share of the gateway's limits (`rateLimitForShare`), read on every campaign. */
  limitShare: () => number;
}

const { startCampaign: startOperation, getCampaign } = ApiOperations;

/** 10,000 playerIds of 50 characters, quoted and separated, are 530 kB; the terms are small. */
export const CAMPAIGN_BODY_LIMIT_BYTES = 1024 * 1024;

export function campaignRoutes(app: Express, deps: CampaignRouteDeps): void {
  const budgetLimit = deps.campaignRateLimit ?? DEFAULT_CAMPAIGN_RATE_LIMIT;
  const budget = new TokenBucketLimiter(budgetLimit, () => deps.clock.now().getTime());
  app.post(expressPath(startOperation.path), ...deps.jsonBody, async (req, res) => {
    const operator = callerOf(res);
    const request = parseRequest(startOperation.body, req.body);
    // A campaignId started before is answered from its stream, whatever today's rules say (D17).
    const earlier = await campaignResend(deps.store, operator.id, request);
    if (earlier !== undefined) {
      if (isRefusal(earlier)) throw RefusedError.from(earlier);
      accepted(res, request, true);
      return;
    }
    const now = deps.clock.now();
    const terms = campaignTerms(request, { operator, catalog: deps.catalog, now });
    const { requestId } = requestContext(res);
    const cost = request.players.length;
    const podBudget = rateLimitForShare(budgetLimit, deps.limitShare());
    const decision = budget.take(operator.id, podBudget, cost);
    // A campaign already stored under this id (a resend, or a conflicting body) is answered without the budget.
    const charged = decision.allowed;
    if (!decision.allowed && (await loadCampaign(deps.store, operator.id, request.campaignId)) === undefined)
      throw new RefusedError(
        'RATE_LIMITED',
        `A campaign of ${cost} players needs ${cost} of the operator's campaign budget; retry after the time given in Retry-After.`,
        { retryAfterSeconds: decision.retryAfterSeconds },
      );
    let started: Awaited<ReturnType<typeof startCampaign>>;
    try {
      started = await startCampaign(deps.store, {
        request,
        terms,
        now: now.toISOString(),
        origin: { commandId: requestId, correlationId: requestId, operatorId: operator.id },
      });
    } catch (error) {
      if (charged) budget.giveBack(operator.id, cost, podBudget);
      throw error;
    }
    // Only a campaign stored now registers players: a resend or a conflicting body costs nothing.
    if (charged && (isRefusal(started) || started.replayed)) budget.giveBack(operator.id, cost, podBudget);
    if (isRefusal(started)) throw RefusedError.from(started);
    accepted(res, request, started.replayed);
  });

  app.get(expressPath(getCampaign.path), async (req, res) => {
    const operator = callerOf(res);
    const { campaignId } = parseRequest(getCampaign.params, { ...req.params });
    const query = parseRequest(getCampaign.query, nonEmptyQuery(req.query));
    const state = await loadCampaign(deps.store, operator.id, campaignId);
    if (state === undefined) throw new RefusedError('CAMPAIGN_NOT_FOUND');
    sendOk(res, campaignProgressOf(state, { offset: Number(query.cursor ?? 0), limit: query.limit }));
  });
}

/**
 * The terms are the same for every player: converted and checked once, as a registration of the first player
 * would be (currency, amounts, expiry, catalog, limits, features), with the same codes and details.
 */
function campaignTerms(request: StartCampaignRequest, context: RegisterContext) {
  const [first] = request.players as [string];
  const template = toRegisterCommandData(
    { ...request.terms, platformId: campaignPlatformId(request.campaignId, first), playerId: first },
    context,
  );
  const { operatorId: _operator, platformId: _platform, playerId: _player, requestHash: _hash, ...terms } = template;
  return terms;
}

/** 202: the campaign is stored (now, or by the same request before: replayed). */
function accepted(res: Response, request: StartCampaignRequest, replayed: boolean): void {
  res
    .status(202)
    .set(replayed ? { [HttpHeaders.idempotentReplayed]: 'true' } : {})
    .json(ok({ campaignId: request.campaignId, total: request.players.length }));
}
