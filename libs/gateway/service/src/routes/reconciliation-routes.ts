/**
 * `/v1/rounds/{roundId}`, `/v1/transactions`, `/v1/wallet/dead-letters…` (see
 * docs/adr/0007-operator-reconciliation-api.md). One round or transaction is read from its own
 * streams through the gateway's EventStore port, read-only; the lists come from the reconciliation
 * read model (docs/adr/0017-reconciliation-projections.md), paged by sealed per-operator cursors;
 * a re-drive is the re-drive CLI's request to the
 * wallet-dispatcher over the bus. Every read and the re-drive name the calling operator: another
 * operator's round or transaction is a 404, exactly as one that does not exist.
 */
import {
  ApiOperations,
  Headers,
  messageId,
  Topics,
  type OperatorConfig,
  type OperatorTransaction,
  type WalletDeadLetter,
  RefusedError,
} from '@reelstream/contracts';
import type { Clock, EventStore, MessageBus } from '@reelstream/platform-ports';
import type { Logger } from '@reelstream/platform-telemetry';
import { notRedrivable, redriveLetter, winRedriveOf, type WalletTxState } from '@reelstream/wallet-application';
import type { ReconciliationList } from '@reelstream/wallet-application';
import type { Express, Response } from 'express';
import { callerOf, requestContext } from '../http/request-context.js';
import { sendOk } from '../http/respond.js';
import { nonEmptyQuery, parseRequest } from '../http/validate.js';
import { openCursor, sealCursor, type CursorOwner } from '../reconciliation/page-cursor.js';
import { ReconciliationReader, type ListPage } from '../reconciliation/reconciliation-reader.js';
import type { ReconciliationReads } from '../reconciliation/reconciliation-reads.js';
import { WebhookLetters } from '../reconciliation/webhook-letters.js';
import { expressPath } from './bonus-call-routes.js';
import { givenFields } from './query-fields.js';

export interface ReconciliationRouteDeps {
  store: EventStore;
  bus: MessageBus;
  clock: Clock;
  logger: Logger;
  /** How long a re-drive waits for the dispatcher's answer. */
  redriveTimeoutMs: number;
  /** The operators' config: each one's `winRedrive` schedule shows as `nextRedriveAt`. */
  operators: { get(id: string): Pick<OperatorConfig, 'winRedrive'> | undefined };
  /** The lists' read model (opened on first use). */
  reads: () => ReconciliationReads;
  /** The secret the cursors' keys derive from; default: each operator's API token digest. */
  cursorSecret?: string;
  /** Rows one list request reads at most while a time filter skips some. Default MAX_ROWS_PER_PAGE. */
  listRowBound?: number;
}

const {
  getRound,
  listTransactions,
  listDeadLetters,
  redriveDeadLetter,
  listWebhookDeadLetters,
  redriveWebhookDeadLetter,
} = ApiOperations;

/** The page as the API answers it: its items and the sealed cursor of the next page, null at the end. */
function sendPage(res: Response, owner: CursorOwner, list: ReconciliationList, page: ListPage<unknown>): void {
  sendOk(res, {
    items: page.items,
    nextCursor: page.lastSeq === undefined ? null : sealCursor(owner, list, page.lastSeq),
  });
}

export function reconciliationRoutes(app: Express, deps: ReconciliationRouteDeps): void {
  const reader = new ReconciliationReader(
    deps.store,
    (operatorId) => winRedriveOf(deps.operators.get(operatorId) ?? {}),
    deps.reads,
    deps.listRowBound,
  );
  const webhookLetters = new WebhookLetters(deps.store, deps.reads);
  readRoutes(app, deps, reader, webhookLetters);
  webhookRedriveRoute(app, deps, webhookLetters);
  deadLetterRedriveRoute(app, deps, reader);
}

/** The round, the transactions and the two dead-letter lists: read-only, each list paged by the caller's cursors. */
function readRoutes(
  app: Express,
  deps: ReconciliationRouteDeps,
  reader: ReconciliationReader,
  webhookLetters: WebhookLetters,
): void {
  const ownerOf = (operator: OperatorConfig): CursorOwner => ({
    id: operator.id,
    secret: deps.cursorSecret ?? operator.apiTokenSha256,
  });
  /** The place a cursor names in the caller's list; none without a cursor; 400 CURSOR_INVALID when it is not one. */
  const afterOf = (owner: CursorOwner, list: ReconciliationList, cursor: string | undefined) =>
    cursor === undefined ? {} : { afterSeq: openCursor(owner, list, cursor) };

  app.get(expressPath(getRound.path), async (req, res) => {
    const operator = callerOf(res);
    const { roundId } = parseRequest(getRound.params, { ...req.params });
    const round = await reader.round(operator.id, roundId);
    if (!round) throw new RefusedError('ROUND_NOT_FOUND', `No round ${roundId} exists for this operator.`);
    sendOk(res, round);
  });

  app.get(expressPath(listTransactions.path), async (req, res) => {
    const operator = callerOf(res);
    const query = parseRequest(listTransactions.query, nonEmptyQuery(req.query));
    const owner = ownerOf(operator);
    const page = await reader.transactions({
      operatorId: operator.id,
      limit: query.limit,
      ...givenFields(query, ['from', 'to', 'playerId', 'status']),
      ...afterOf(owner, 'transactions', query.cursor),
    });
    sendPage(res, owner, 'transactions', page);
  });

  /** A dead-letter list: the caller's page after `cursor` (at most `limit` items) and the cursor of the next. */
  const deadLetterList = (
    operation: { readonly path: string; readonly query: typeof listDeadLetters.query },
    list: ReconciliationList,
    read: (query: { operatorId: string; limit: number; afterSeq?: number }) => Promise<ListPage<unknown>>,
  ) =>
    app.get(expressPath(operation.path), async (req, res) => {
      const operator = callerOf(res);
      const query = parseRequest(operation.query, nonEmptyQuery(req.query));
      const owner = ownerOf(operator);
      const page = await read({ operatorId: operator.id, limit: query.limit, ...afterOf(owner, list, query.cursor) });
      sendPage(res, owner, list, page);
    });

  deadLetterList(listDeadLetters, 'deadLetters', (query) => reader.deadLetters(query));
  deadLetterList(listWebhookDeadLetters, 'webhookLetters', (query) => webhookLetters.page(query));
}

function webhookRedriveRoute(app: Express, deps: ReconciliationRouteDeps, webhookLetters: WebhookLetters): void {
  // The webhook goes back to `bonus.webhooks`, where the wallet-dispatcher delivers it from its first attempt.
  app.post(expressPath(redriveWebhookDeadLetter.path), async (req, res) => {
    const operator = callerOf(res);
    const { eventId } = parseRequest(redriveWebhookDeadLetter.params, { ...req.params });
    const found = await webhookLetters.find(operator.id, eventId);
    if (!found)
      throw new RefusedError(
        'WEBHOOK_NOT_FOUND',
        `No dead-lettered bonus webhook ${eventId} exists for this operator.`,
      );
    const { requestId } = requestContext(res);
    const at = deps.clock.now().toISOString();
    const id = messageId.safeParse(requestId).success ? requestId : `webhook-redrive-${eventId.slice(3, 39)}`;
    const context = {
      correlationId: id,
      causationId: id,
      operatorId: operator.id,
      occurredAt: at,
      requestId: requestId.slice(0, 200),
      at,
    };
    // One re-drive of a letter sends it: the claim is an append at the revision read, which a second one fails.
    if (!found.standing || !(await webhookLetters.markRedriven(found, context))) {
      sendOk(res, { result: 'already_redriven', deadLetter: found.view });
      return;
    }
    const { letter } = found;
    try {
      await deps.bus.publish(Topics.bonusWebhooks, {
        key: letter.key,
        value: { operatorId: letter.operatorId, webhook: letter.webhook },
        headers: { [Headers.messageType]: letter.webhook.type, [Headers.operatorId]: letter.operatorId },
      });
    } catch (error) {
      // Not sent: the letter stands again, to be re-driven later.
      await webhookLetters.reinstate(letter, context);
      deps.logger.warn('webhook re-drive: not published', { requestId, eventId, error });
      throw new RefusedError('SERVICE_UNAVAILABLE', 'The webhook could not be sent again now; retry.', {
        retryAfterSeconds: 5,
      });
    }
    sendOk(res, { result: 'redriven', deadLetter: found.view });
  });
}

function deadLetterRedriveRoute(app: Express, deps: ReconciliationRouteDeps, reader: ReconciliationReader): void {
  app.post(expressPath(redriveDeadLetter.path), async (req, res) => {
    const operator = callerOf(res);
    const { transactionId } = parseRequest(redriveDeadLetter.params, { ...req.params });
    const notFound = () =>
      new RefusedError('TRANSACTION_NOT_FOUND', `No wallet transaction ${transactionId} exists for this operator.`);
    const found = await reader.transaction(operator.id, transactionId);
    if (!found) throw notFound();
    const { view } = found;
    // Delivered before (by an earlier re-drive or its own retries): answered from the record, nothing is sent.
    if (view.command === 'win' && view.status === 'succeeded') {
      sendOk(res, { result: 'already_applied', reason: null, transaction: view });
      return;
    }
    const letter = deadLetteredWinOf(transactionId, operator.id, found);
    const blocked = letter ? notRedrivable(letter) : undefined;
    if (!letter || blocked !== undefined)
      throw new RefusedError(
        'NOT_DEAD_LETTERED',
        blocked ?? `Transaction ${transactionId} is a ${view.command} with status ${view.status}: nothing to re-drive.`,
      );
    const outcome = await redriveLetter(deps, letter, deps.redriveTimeoutMs);
    if (outcome.kind === 'no_answer') {
      deps.logger.warn('re-drive: the wallet-dispatcher did not answer in time', {
        requestId: requestContext(res).requestId,
        transactionId,
        error: outcome.error,
      });
      throw new RefusedError(
        'SERVICE_UNAVAILABLE',
        'The wallet-dispatcher did not answer in time; the re-drive may still happen: read the transaction, then retry.',
        { retryAfterSeconds: 5 },
      );
    }
    const after = (await reader.transaction(operator.id, transactionId))?.view ?? view;
    sendOk(res, {
      result: outcome.kind === 'applied' ? 'applied' : 'failed',
      reason: outcome.kind === 'applied' ? null : (outcome.reply.reason ?? outcome.reply.statusCode),
      transaction: after,
    });
  });
}

/** The letter of a dead-lettered win, as the wallet-dispatcher re-drives it; none for any other transaction. */
function deadLetteredWinOf(
  transactionId: number,
  operatorId: string,
  { view, state }: { view: OperatorTransaction; state: WalletTxState },
): WalletDeadLetter | undefined {
  if (state.status !== 'dead_lettered' || state.request?.command !== 'win') return undefined;
  return {
    transactionId,
    operatorId,
    playerId: state.request.playerId,
    request: state.request,
    reason: state.deadLetterReason ?? 'delivery_failed',
    attempts: state.attempts,
    lastError: view.lastError ?? 'failed',
    deadLetteredAt: state.deadLetteredAt ?? view.requestedAt,
  };
}
