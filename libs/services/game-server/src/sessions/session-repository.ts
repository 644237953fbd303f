/**
 * Launch sessions as the game-server reads them: the `session-{token}` stream the gateway wrote
 * (GameSessionStarted, later maybe GameSessionEnded). A session is cached after its first read;
 * every later use only asks the store for the stream's revision, so an end written by another
 * process is seen at once.
 */
import { parseStoredEvent, SESSION_TOKEN_PATTERN, sessionStream, type GameSessionStarted } from '@reelstream/contracts';
import type { Clock, EventStore } from '@reelstream/ports';
import { ApiError } from '@reelstream/http';

export type GameSession = GameSessionStarted['data'] & {
  readonly demo: boolean;
  /** When a GameSessionEnded was written. */
  readonly endedAt?: string;
};

interface Cached {
  readonly revision: number;
  readonly session: GameSession;
}

export class SessionRepository {
  private readonly cache = new Map<string, Cached>();

  constructor(
    private readonly store: EventStore,
    private readonly clock: Clock,
    private readonly capacity = 10_000,
  ) {}

  /** The session of `token`, or undefined when no launch wrote one (a malformed token included). */
  async find(token: string): Promise<GameSession | undefined> {
    if (!SESSION_TOKEN_PATTERN.test(token)) return undefined;
    const stream = sessionStream(token);
    const revision = await this.store.streamRevision(stream);
    if (revision === undefined) return undefined;
    const cached = this.cache.get(token);
    if (cached && cached.revision === revision) return cached.session;
    const session = await this.load(stream, revision);
    if (session) this.remember(token, { revision, session });
    return session;
  }

  /** The session, if it may still be played: SESSION_NOT_FOUND, or SESSION_EXPIRED once past its TTL or ended. */
  async playable(token: string): Promise<GameSession> {
    const session = await this.find(token);
    if (!session) throw new ApiError('SESSION_NOT_FOUND');
    if (session.endedAt !== undefined || this.clock.now().getTime() >= Date.parse(session.expiresAt))
      throw new ApiError('SESSION_EXPIRED');
    return session;
  }

  private async load(stream: string, revision: number): Promise<GameSession | undefined> {
    let session: GameSession | undefined;
    for (const recorded of await this.store.readStream(stream, { maxCount: revision + 1 })) {
      const event = parseStoredEvent(recorded);
      if (event.type === 'GameSessionStarted') session = { ...event.data, demo: event.data.demo ?? false };
      else if (event.type === 'GameSessionEnded' && session) session = { ...session, endedAt: event.data.endedAt };
    }
    return session;
  }

  private remember(token: string, entry: Cached): void {
    this.cache.delete(token);
    if (this.cache.size >= this.capacity) {
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    this.cache.set(token, entry);
  }
}
