/**
 * `/v1/bonus-call…` (spec §4.1, §4.2; decisions.md D13, D14, D17, D18). Every command and query names
 * the calling operator, taken from its token, never from the request: the ledger answers a
 * bonus call of another operator as not found, and the gateway checks the answer again.
 */
import {
  ApiOperations,
  HttpHeaders,
  toBonusCallStatus,
  type BonusCallRecord,
  type OperatorConfig,
  RefusedError,
} from '@reelstream/contracts';
import type { Clock } from '@reelstream/platform-ports';
import type { Express, RequestHandler } from 'express';
import { registrationKeyOf, toRegisterCommandData } from '../bonus/register-command.js';
import type { BonusRegistrar } from '../bonus/registrar.js';
import type { CatalogView } from '../catalog/catalog-view.js';
import { callerOf, requestContext } from '../http/request-context.js';
import { sendOk } from '../http/respond.js';
import { nonEmptyQuery, parseRequest } from '../http/validate.js';
import type { LedgerClient } from '../ledger/ledger-client.js';
import { givenFields } from './query-fields.js';

export interface BonusCallRouteDeps {
  /** Registrations, decided in this process (ADR 0011). */
  registrar: BonusRegistrar;
  /** Cancel and the status queries, answered by the bonus-ledger over the bus (ADR 0001). */
  ledger: LedgerClient;
  catalog: CatalogView;
  clock: Clock;
  /** Content type and body parsing for the writes. */
  jsonBody: RequestHandler[];
}

const { registerBonusCall, cancelBonusCall, getBonusCall, listBonusCalls } = ApiOperations;

/** Express path of an OpenAPI path: `/v1/bonus-call/{issueId}` → `/v1/bonus-call/:issueId`. */
export const expressPath = (path: string): string => path.replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');

export function bonusCallRoutes(app: Express, deps: BonusCallRouteDeps): void {
  const { ledger } = deps;

  app.post(expressPath(registerBonusCall.path), ...deps.jsonBody, async (req, res) => {
    const operator = callerOf(res);
    const request = parseRequest(registerBonusCall.body, req.body);
    // A platformId registered before is answered by its key; only a new one meets today's rules (D17).
    const result = await deps.registrar.register(
      registrationKeyOf(request, operator.id),
      () => toRegisterCommandData(request, { operator, catalog: deps.catalog, now: deps.clock.now() }),
      requestContext(res).requestId,
    );
    sendOk(res, { issueId: result.issueId }, result.replayed ? { [HttpHeaders.idempotentReplayed]: 'true' } : {});
  });

  app.post(expressPath(cancelBonusCall.path), ...deps.jsonBody, async (req, res) => {
    const operator = callerOf(res);
    const ref = parseRequest(cancelBonusCall.body, req.body);
    const result = await ledger.call({
      type: 'CancelBonusCall',
      data: { operatorId: operator.id, ...ref },
      requestId: requestContext(res).requestId,
    });
    sendOk(res, { issueId: result.issueId, status: 'canceled' });
  });

  app.get(expressPath(getBonusCall.path), async (req, res) => {
    const operator = callerOf(res);
    const { issueId } = parseRequest(getBonusCall.params, { ...req.params });
    const record = await ledger.call({
      type: 'GetBonusCall',
      data: { operatorId: operator.id, issueId },
      requestId: requestContext(res).requestId,
    });
    sendOk(res, toBonusCallStatus(ownRecord(record, operator)));
  });

  app.get(expressPath(listBonusCalls.path), async (req, res) => {
    const operator = callerOf(res);
    const query = parseRequest(listBonusCalls.query, nonEmptyQuery(req.query));
    const data = {
      operatorId: operator.id,
      limit: query.limit,
      ...givenFields(query, ['playerId', 'platformId', 'status', 'cursor']),
    };
    const page = await ledger.call({ type: 'ListBonusCalls', data, requestId: requestContext(res).requestId });
    const foreign = page.items.filter((record) => record.operatorId !== operator.id);
    if (foreign.length > 0)
      throw new Error(`bonus-ledger listed ${foreign.length} bonus call(s) of another operator for ${operator.id}`);
    sendOk(res, { items: page.items.map(toBonusCallStatus), nextCursor: page.nextCursor });
  });
}

/** D18 twice over: a record of another operator is a 404 even if the ledger ever returned one. */
function ownRecord(record: BonusCallRecord, operator: OperatorConfig): BonusCallRecord {
  if (record.operatorId !== operator.id) throw new RefusedError('BONUS_NOT_FOUND');
  return record;
}
