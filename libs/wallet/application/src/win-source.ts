/**
 * The check a win passes before it is sent: a win names the stored event it comes
 * from, by stream and revision, so this reads that one event (and the round's start or the bonus
 * call's registration), never a scan; whether they match is wallet-domain's rule
 * (`checkPaidRoundWin`, `checkFreeSpinWin`).
 */
import {
  parseStoredEvent,
  parseStreamId,
  roundStream,
  type BonusCallRegistered,
  type DomainEvent,
  type WalletWinRequest,
} from '@reelstream/contracts';
import type { EventStore, RecordedEvent } from '@reelstream/platform-ports';
import {
  checkFreeSpinWin,
  checkPaidRoundWin,
  checkStake,
  refusedWin as refused,
  type StakeRequest,
  type StakeSourceCheck,
  type WinSourceCheck,
} from '@reelstream/wallet-domain';

export type { WinSourceCheck };

type Registration = Pick<BonusCallRegistered['data'], 'currency' | 'providerId'>;

const PAGE = 200;
/** A round source this close to the stream's start is read with the round's start in one query. */
const ROUND_READ_AT_ONCE = 16;

export class WinSourceChecker {
  /** Registrations never change once stored: kept by stream and issueId, so a bonus call's spins read it once. */
  private readonly registrations = new Map<string, Registration>();

  constructor(
    private readonly store: EventStore,
    private readonly capacity = 10_000,
  ) {}

  async check(win: WalletWinRequest): Promise<WinSourceCheck> {
    const { source } = win;
    if (!source) return refused('no_source', 'the win names no source event (RoundSettled or FreeSpinSettled)');
    const owner = parseStreamId(source.stream);
    if (owner?.category !== 'round' && owner?.category !== 'playerBonus')
      return refused('source_not_found', `the source stream ${source.stream} is not a round or playerBonus stream`);
    // A round is short (RoundStarted … RoundSettled): its start and its settlement come in one read.
    const head =
      owner.category === 'round' && source.revision < ROUND_READ_AT_ONCE
        ? await this.store.readStream(source.stream, { fromRevision: 0, maxCount: source.revision + 1 })
        : undefined;
    const recorded = head
      ? head.find((event) => event.revision === source.revision)
      : (await this.store.readStream(source.stream, { fromRevision: source.revision, maxCount: 1 }))[0];
    if (!recorded || recorded.revision !== source.revision || recorded.eventId !== source.eventId) {
      return refused(
        'source_not_found',
        `no event ${source.eventId} at revision ${source.revision} of ${source.stream}`,
      );
    }
    const event = parsed(recorded);
    if (owner.category === 'round') {
      if (event?.type !== 'RoundSettled')
        return refused(
          'source_not_found',
          `${source.stream}@${source.revision} is a ${recorded.type}, not a RoundSettled`,
        );
      const [first] = head ?? (await this.store.readStream(source.stream, { fromRevision: 0, maxCount: 1 }));
      const started = first ? parsed(first) : undefined;
      if (started?.type !== 'RoundStarted')
        return refused('source_not_found', `${source.stream} does not start with RoundStarted`);
      return checkPaidRoundWin(win, event.data, started.data);
    }
    if (event?.type !== 'FreeSpinSettled')
      return refused(
        'source_not_found',
        `${source.stream}@${source.revision} is a ${recorded.type}, not a FreeSpinSettled`,
      );
    const spin = event.data;
    const registration = await this.registrationOf(source.stream, spin.issueId, source.revision);
    if (!registration)
      return refused('source_not_found', `${source.stream} has no registration of bonus call ${spin.issueId}`);
    return checkFreeSpinWin(win, owner, spin, registration);
  }

  /**
   * A bet or betwin against its round's RoundStarted: the first event of `round-{roundId}`, which the
   * game-server stores before it publishes the request. One read of one event.
   */
  async checkStake(request: StakeRequest): Promise<StakeSourceCheck> {
    const [first] = await this.store.readStream(roundStream(request.roundId), { fromRevision: 0, maxCount: 1 });
    const started = first ? parsed(first) : undefined;
    return checkStake(request, started?.type === 'RoundStarted' ? started.data : undefined);
  }

  /** The bonus call's registration, which precedes its spins in the stream: read backwards from the spin. */
  private async registrationOf(stream: string, issueId: number, before: number): Promise<Registration | undefined> {
    const key = `${stream}\u0000${issueId}`;
    const cached = this.registrations.get(key);
    if (cached) return cached;
    for (let from = before; from >= 0; from -= PAGE) {
      const page = await this.store.readStream(stream, { direction: 'backwards', fromRevision: from, maxCount: PAGE });
      for (const recorded of page) {
        if (recorded.type !== 'BonusCallRegistered') continue;
        const event = parsed(recorded);
        if (event?.type !== 'BonusCallRegistered' || event.data.issueId !== issueId) continue;
        if (this.registrations.size >= this.capacity)
          this.registrations.delete(this.registrations.keys().next().value as string);
        const registration = { currency: event.data.currency, providerId: event.data.providerId };
        this.registrations.set(key, registration);
        return registration;
      }
      if (page.length < PAGE) return undefined;
    }
    return undefined;
  }
}

function parsed(recorded: RecordedEvent): DomainEvent | undefined {
  try {
    return parseStoredEvent(recorded);
  } catch {
    return undefined;
  }
}
