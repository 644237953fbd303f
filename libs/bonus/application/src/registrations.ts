/**
 * Registering a bonus call (D17, ADR 0011): the RegisterBonusCall command decided on the
 * `bonusRequest-{operatorId}-{platformId}` guard stream and the player's `playerBonus` stream, with
 * each stream's expected revision as the lock. Transport-free: the gateway runs it in its own
 * process for `POST /v1/bonus-call/register`, and the bonus-ledger's campaign worker calls it per
 * player of a campaign; the events are the same whichever process decides. No bus message carries a
 * registration.
 */
import { bonusDecider, registrationRequestOf, type RegisterBonusCall } from '@reelstream/bonus-domain';
import { isRefusal, refusal, type Refusal, type RegisterBonusCallData } from '@reelstream/contracts';
import type { Clock, EventStore, IdGenerator } from '@reelstream/platform-ports';
import { contextOf, type CommandOrigin } from './command-origin.js';
import type { CatalogLookup, OperatorPolicyLookup } from './ports.js';
import { readGuard, reserveGuard } from './registration-guard.js';
import { catalogFactsOf } from './registration-refusal.js';
import { playerBonusStreams } from './streams.js';

export interface RegistrationsDeps {
  store: EventStore;
  clock: Clock;
  /** Draws the issueId of each new bonus call. */
  ids: IdGenerator;
  catalog: CatalogLookup;
  operators: OperatorPolicyLookup;
  maxAttempts?: number;
}

type OperatorPolicy = NonNullable<ReturnType<OperatorPolicyLookup>>;

export type { RegisterBonusCallData };

/** What a registration answers: the bonus call's issueId, and whether the same request was registered before. */
export interface Registered {
  readonly issueId: number;
  /** true when the same platformId and request hash were registered before (D17). */
  readonly replayed: boolean;
}

/**
 * What names a registration before any rule is applied: the platformId it reserves, with the hash of
 * the request as its schema normalised it and the player it is for.
 */
export interface RegistrationKey {
  readonly operatorId: string;
  readonly platformId: string;
  readonly requestHash: string;
  readonly playerId: string;
}

const notConfigured = (operatorId: string) =>
  refusal('FORBIDDEN', `operator ${operatorId} is not configured on this platform`);

const platformIdConflict = (platformId: string) =>
  refusal('PLATFORM_ID_CONFLICT', `platformId ${platformId} was already registered with a different request body`);

export class Registrations {
  constructor(private readonly deps: RegistrationsDeps) {}

  /**
   * The answer to a request whose platformId is registered already, found by the key alone, so that
   * no rule of today (expireAt now in the past, the operator's limits, currencies or features, the
   * catalog, all changed since) stands between a resend and its original answer (D17): the same
   * hash and player → the issueId, replayed; another → PLATFORM_ID_CONFLICT. Undefined when the
   * platformId is free, or reserved by this request but not registered yet (an earlier attempt
   * stopped between the two appends): `register` decides those under today's rules.
   */
  async resend(key: RegistrationKey): Promise<Registered | Refusal | undefined> {
    if (!this.deps.operators(key.operatorId)) return notConfigured(key.operatorId);
    const guard = await readGuard(this.deps.store, key);
    if (!guard) return undefined;
    if (guard.requestHash !== key.requestHash || guard.playerId !== key.playerId)
      return platformIdConflict(key.platformId);
    const { state } = await playerBonusStreams.load(this.deps.store, key);
    return state.bonuses.has(guard.issueId) ? { issueId: guard.issueId, replayed: true } : undefined;
  }

  /**
   * Idempotent by platformId through the guard stream: the same body again is answered with the
   * same issueId (`replayed`), another body is PLATFORM_ID_CONFLICT. One active bonus per player:
   * the registration is appended to the player's stream with the revision it was decided on, so of
   * two concurrent registrations for one player (from any processes) one is decided again on the
   * other's event and refused. Refusals write nothing.
   */
  async register(data: RegisterBonusCallData, origin: CommandOrigin): Promise<Registered | Refusal> {
    const policy = this.deps.operators(data.operatorId);
    if (!policy) return notConfigured(data.operatorId);
    const { store } = this.deps;
    const now = this.deps.clock.now().toISOString();
    const context = contextOf(origin, now);
    const toDomain = (issueId: number): RegisterBonusCall => this.registrationOf(data, policy, now, issueId);
    const retry = this.deps.maxAttempts === undefined ? {} : { retry: { maxAttempts: this.deps.maxAttempts } };

    // Two passes at most: the second only when another request reserved this platformId meanwhile.
    for (let pass = 0; pass < 2; pass++) {
      const guard = await readGuard(store, data);
      if (guard) {
        if (guard.requestHash !== data.requestHash || guard.playerId !== data.playerId)
          return platformIdConflict(data.platformId);
        // A resend: the registration is in the player's stream already (replayed), or an earlier
        // attempt stopped between the reservation and the registration, which is completed now.
        const decided = await playerBonusStreams.handle(store, data, toDomain(guard.issueId), context, retry);
        if (isRefusal(decided)) return decided;
        return { issueId: guard.issueId, replayed: decided.events.length === 0 };
      }

      const issueId = this.deps.ids.next();
      const registration = toDomain(issueId);
      const loaded = await playerBonusStreams.load(store, data);
      const check = bonusDecider.decide(registration, loaded.state);
      // A refused request reserves nothing: the operator may correct it and send it again.
      if (isRefusal(check)) return check;
      if (
        !(await reserveGuard(
          store,
          data,
          { issueId, requestHash: data.requestHash, playerId: data.playerId, acceptedAt: now },
          origin,
        ))
      )
        continue;
      const decided = await playerBonusStreams.handle(store, data, registration, context, { ...retry, loaded });
      if (isRefusal(decided)) return decided;
      // Replayed when a resend of this request, in another process, appended the registration first.
      return { issueId, replayed: decided.events.length === 0 };
    }
    return refusal('SERVICE_UNAVAILABLE', `platformId ${data.platformId} is being registered concurrently; retry`, {
      retriable: true,
    });
  }

  /** The domain command of a registration: the request with the catalog facts and the operator's terms. */
  private registrationOf(
    data: RegisterBonusCallData,
    policy: OperatorPolicy,
    now: string,
    issueId: number,
  ): RegisterBonusCall {
    return {
      type: 'RegisterBonusCall',
      data: {
        issueId,
        platformId: data.platformId,
        operatorId: data.operatorId,
        playerId: data.playerId,
        ...registrationRequestOf(data),
        catalog: catalogFactsOf(this.deps.catalog, data),
        features: policy.features,
        terms: { currencies: policy.currencies, limits: policy.limits },
      },
      metadata: { now },
    };
  }
}
