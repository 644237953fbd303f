/**
 * `POST /webhooks/:operatorId`: the reference receiver of bonus webhooks. It does what
 * the operator guide (7.3) asks of a receiver: verify the signature over the raw bytes (D8, the
 * operator's scheme) before reading the body, answer 2xx, and apply each `eventId` once — a
 * repeat is answered 204 and changes nothing. What it applied is in `webhooks` (memory only).
 */
import express, { type Router } from 'express';
import { bonusWebhook, HttpHeaders, type BonusWebhook, type OperatorConfig } from '@reelstream/contracts';
import { signatureProblem } from './signature.js';

/** The bonus webhooks the sandbox applied, once per eventId, in the order received. */
export class WebhookInbox {
  private readonly byOperator = new Map<string, Map<string, BonusWebhook>>();

  /** False when this eventId was applied before. */
  apply(operatorId: string, webhook: BonusWebhook): boolean {
    const applied = this.byOperator.get(operatorId) ?? new Map<string, BonusWebhook>();
    this.byOperator.set(operatorId, applied);
    if (applied.has(webhook.eventId)) return false;
    applied.set(webhook.eventId, webhook);
    return true;
  }

  of(operatorId: string): BonusWebhook[] {
    return [...(this.byOperator.get(operatorId)?.values() ?? [])];
  }
}

export function webhookRouter(deps: {
  operators: { get(id: string): OperatorConfig | undefined };
  inbox: WebhookInbox;
  nowMs: () => number;
}): Router {
  const router = express.Router();
  router.post('/webhooks/:operatorId', express.raw({ type: () => true, limit: '64kb' }), (req, res) => {
    const operator = deps.operators.get(req.params.operatorId ?? '');
    if (!operator) return void res.status(404).json({ error: 'unknown operator' });
    const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const problem = signatureProblem(
      {
        rawBody,
        signature: req.get(HttpHeaders.requestSignature),
        timestamp: req.get(HttpHeaders.requestTimestamp),
      },
      operator,
      Math.floor(deps.nowMs() / 1_000),
    );
    if (problem !== undefined) return void res.status(401).json({ error: problem });
    let parsed;
    try {
      parsed = bonusWebhook.safeParse(JSON.parse(rawBody.toString('utf8')));
    } catch {
      parsed = undefined;
    }
    if (!parsed?.success) return void res.status(400).json({ error: 'not a bonus webhook' });
    deps.inbox.apply(operator.id, parsed.data);
    res.status(204).end();
  });
  return router;
}
