/**
 * `POST /v1/bonus-call/register` decided in the gateway's own process (ADR 0011), with
 * @reelstream/bonus-application's `Registrations`: the same decision, guard stream, player stream,
 * events and answers as the bonus-ledger's, without a request/reply over `bonus.commands`. The
 * command's data is validated by the contract the ledger's bus edge uses, its commandId drawn here,
 * the request id as its correlationId; its events carry the request's trace context (the traced
 * event store stamps it), which the ledger's relay continues.
 */
import { Registrations, type CatalogLookup, type RegistrationKey } from '@reelstream/bonus-application';
import type { OperatorDirectory } from '@reelstream/platform-config';
import { isRefusal, registerBonusCallData, type Refusal, RefusedError } from '@reelstream/contracts';
import { ConcurrencyExhaustedError } from '@reelstream/platform-eventsourcing';
import type { Clock, EventStore, IdGenerator } from '@reelstream/platform-ports';
import { createMetrics, MetricNames } from '@reelstream/platform-telemetry';
import type { RegisterBonusCallData } from './register-command.js';

interface RegistrarDeps {
  store: EventStore;
  operators: OperatorDirectory;
  /** The catalog view's lookup: indexed once for the gateway. */
  catalog: CatalogLookup;
  clock: Clock;
  /** Draws each command's commandId and each new bonus call's issueId. */
  ids: IdGenerator;
}

interface Registered {
  issueId: number;
  /** The same request was registered before: nothing was appended. */
  replayed: boolean;
}

/** How long a client waits before retrying a registration that kept meeting concurrent writers. */
const RETRY_AFTER_SECONDS = 1;

export class BonusRegistrar {
  private readonly registrations: Registrations;
  private readonly counted = countRegistrations();

  constructor(private readonly deps: RegistrarDeps) {
    this.registrations = new Registrations({
      store: deps.store,
      clock: deps.clock,
      ids: deps.ids,
      catalog: deps.catalog,
      operators: (operatorId) => deps.operators.get(operatorId),
    });
  }

  /**
   * Answers the earlier registration of the key's platformId, or registers the command `build`
   * makes (where today's rules refuse, by throwing); a refusal is thrown as the RefusedError of its code.
   * The key is looked up first so that a resend gets its original answer whatever the rules say now
   * (D17).
   */
  async register(key: RegistrationKey, build: () => RegisterBonusCallData, requestId: string): Promise<Registered> {
    let answer;
    try {
      answer =
        (await this.registrations.resend(key)) ??
        (await this.registrations.register(registerBonusCallData.parse(build()), {
          commandId: String(this.deps.ids.next()),
          correlationId: requestId,
          operatorId: key.operatorId,
        }));
    } catch (error) {
      // The player's or the guard's stream kept changing through every retry: nothing of this
      // request was decided that a retry with the same platformId would not answer the same way.
      if (error instanceof ConcurrencyExhaustedError)
        throw new RefusedError(
          'SERVICE_UNAVAILABLE',
          'The bonus call is being changed concurrently; retry (a retried registration with the same platformId is safe).',
          { retryAfterSeconds: RETRY_AFTER_SECONDS },
        );
      throw error;
    }
    this.counted(key.operatorId, answer);
    if (isRefusal(answer))
      throw new RefusedError(answer.code, answer.message, {
        details: answer.details,
        retryAfterSeconds: answer.retriable ? RETRY_AFTER_SECONDS : undefined,
      });
    return answer;
  }
}

/**
 * Registrations answered by outcome, as the bonus-ledger counts those of its campaign worker
 * (docs/observability.md). Operators are the gateway's configured ones, so the labels stay bounded.
 */
function countRegistrations() {
  const registrations = createMetrics().counter<'operator' | 'outcome'>(MetricNames.bonusRegistrations, {
    description: 'registrations decided, by outcome (ok or the error code)',
    unit: '{request}',
  });
  return (operator: string, answer: Registered | Refusal) =>
    registrations.add(1, { operator, outcome: isRefusal(answer) ? answer.code : 'ok' });
}
