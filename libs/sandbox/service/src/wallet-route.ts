/**
 * `POST /wallet/:operatorId`: the callback URL (spec §4.4, §6). Every answer is HTTP 200 with
 * `{balance, statusCode}` (plus `message` on errors), except what a fault rule says otherwise.
 * Order: faults that replace the answer, the signature over the raw bytes (D8; with the
 * timestamp under the operator's `timestamp.body` scheme), the body in the operator's id encoding
 * (D7), then the ledger.
 */
import express, { type Request, type Response, type Router } from 'express';
import { HttpHeaders, parseCallback, type CallbackStatusCode, type OperatorConfig } from '@reelstream/contracts';
import type { Delays } from './delays.js';
import { MALFORMED_BODY, type FaultRegistry, type FaultRule } from './faults.js';
import { signatureProblem } from './signature.js';
import type { LedgerViews, RequestOutcome, SandboxWallet, WalletResponse } from '@reelstream/sandbox-adapters';

export interface WalletRouteDeps {
  operators: { get(id: string): OperatorConfig | undefined };
  wallet: SandboxWallet;
  views: LedgerViews;
  faults: FaultRegistry;
  delays: Delays;
  /** The clock X-Request-Timestamp is checked against (Unix ms). */
  nowMs: () => number;
}

interface Peek {
  command: string | undefined;
  playerId: string | undefined;
  transactionId: number | undefined;
}

/** What a body claims to be, before it is verified: enough to match fault rules and log it. */
function peek(json: unknown): Peek {
  const value = (json !== null && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  const text = (field: unknown) => (typeof field === 'string' && field.length <= 64 ? field : undefined);
  const id = Number(value['transactionId']);
  return {
    command: text(value['command']),
    playerId: text(value['playerId']),
    transactionId: Number.isSafeInteger(id) && id > 0 ? id : undefined,
  };
}

function parseJson(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function answersInstead(rule: FaultRule | undefined): boolean {
  return (
    rule !== undefined &&
    (rule.httpStatus !== undefined ||
      rule.statusCode !== undefined ||
      rule.malformedBody !== undefined ||
      rule.dropConnection !== undefined)
  );
}

// Long because: the wallet route and its helpers (log, fault answers, apply) share the route's dependencies (closures).
export function walletRouter(deps: WalletRouteDeps): Router {
  const router = express.Router();
  const log = (
    operatorId: string,
    claimed: Peek,
    outcome: RequestOutcome,
    statusCode: string | null,
    rule: FaultRule | undefined,
  ) => {
    deps.views.logRequest({
      operatorId,
      playerId: claimed.playerId ?? null,
      command: claimed.command ?? null,
      transactionId: claimed.transactionId ?? null,
      outcome,
      statusCode,
      faultId: rule?.id ?? null,
    });
  };

  const faultAnswer = (res: Response, rule: FaultRule, balance: number) => {
    if (rule.dropConnection) return void res.socket?.destroy();
    if (rule.httpStatus !== undefined)
      return void res.status(rule.httpStatus).json({ error: 'injected fault', httpStatus: rule.httpStatus });
    if (rule.malformedBody !== undefined)
      return void res
        .status(200)
        .type('application/json')
        .send(rule.malformedBody === true ? MALFORMED_BODY : rule.malformedBody);
    const statusCode: CallbackStatusCode = rule.statusCode ?? 'ERR_UNKNOWN';
    res.status(200).json({ balance, statusCode, message: 'injected fault' });
  };

  /** Signature, body, ledger: the real wallet behind the faults. */
  const apply = (
    req: Request,
    operator: OperatorConfig,
    raw: Buffer,
    json: unknown,
  ): { outcome: RequestOutcome; response: WalletResponse } => {
    const signed = {
      rawBody: raw,
      signature: req.get(HttpHeaders.requestSignature),
      timestamp: req.get(HttpHeaders.requestTimestamp),
    };
    const problem = signatureProblem(signed, operator, Math.floor(deps.nowMs() / 1_000));
    if (problem !== undefined)
      return {
        outcome: 'bad_signature',
        response: { balance: 0, statusCode: 'ERR_INTEGRITY_CHECK_FAILED', message: problem },
      };
    let callback;
    try {
      callback = parseCallback(json, operator.callbackIdEncoding);
    } catch (error) {
      const issues = (error as { issues?: { path: PropertyKey[]; message: string }[] }).issues ?? [];
      const message =
        json === undefined
          ? 'the body is not JSON'
          : issues.map((issue) => `${issue.path.map(String).join('.') || '(body)'}: ${issue.message}`).join('; ');
      return {
        outcome: 'invalid',
        response: { balance: 0, statusCode: 'ERR_UNKNOWN', message: message.slice(0, 1_000) },
      };
    }
    return deps.wallet.process(operator.id, callback);
  };

  router.post(
    '/wallet/:operatorId',
    express.raw({ type: () => true, limit: '64kb' }),
    async (req: Request<{ operatorId: string }>, res: Response) => {
      const operator = deps.operators.get(req.params.operatorId);
      if (!operator) {
        res
          .status(404)
          .json({ balance: 0, statusCode: 'ERR_UNKNOWN', message: `no operator ${req.params.operatorId} here` });
        return;
      }
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const json = parseJson(raw);
      const claimed = peek(json);
      const rule = deps.faults.take({ operatorId: operator.id, playerId: claimed.playerId, command: claimed.command });
      const latency = rule?.latencyMs ?? 0;

      if (rule && answersInstead(rule) && !rule.applyFirst) {
        await deps.delays.wait(latency);
        if (deps.delays.isStopped) return void res.socket?.destroy();
        log(operator.id, claimed, 'fault', rule.statusCode ?? null, rule);
        faultAnswer(res, rule, 0);
        return;
      }
      if (rule?.latencyPhase === 'before_apply') await deps.delays.wait(latency);
      if (deps.delays.isStopped) return void res.socket?.destroy();
      // The ledger's change and its line in the request log commit together.
      const response = deps.wallet.atomically(() => {
        const { outcome, response: answer } = apply(req, operator, raw, json);
        log(operator.id, claimed, outcome, answer.statusCode, rule);
        return answer;
      });
      if (rule && rule.latencyPhase === 'after_apply') await deps.delays.wait(latency);
      if (deps.delays.isStopped) return void res.socket?.destroy();
      if (rule && answersInstead(rule)) faultAnswer(res, rule, response.balance);
      else res.status(200).json(response);
    },
  );
  return router;
}
