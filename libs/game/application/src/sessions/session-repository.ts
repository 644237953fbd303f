/**
 * Launch sessions as the game-server reads them: the `session-sha256.{key}` stream the launch wrote
 * (GameSessionStarted, later maybe GameSessionEnded), the key being the token's SHA-256
 * (`sessionKeyOf`), folded by the session decider. A session launched before the log stopped
 * holding tokens is under `session-{token}`: read when no keyed stream exists, so it plays until it
 * expires. A session is cached after its first read; every later use only asks the store for the
 * stream's revision, so an end written by another process is seen at once.
 */
import { SESSION_TOKEN_PATTERN, sessionKeyOf, type Refusal } from '@reelstream/contracts';
import { playableSession, type GameSession } from '@reelstream/game-domain';
import type { Clock, EventStore } from '@reelstream/platform-ports';
import { sessionStreams, type SessionStreamId } from './session-streams.js';

export type { GameSession } from '@reelstream/game-domain';

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
    let id: SessionStreamId = { key: sessionKeyOf(token) };
    let revision = await this.store.streamRevision(sessionStreams.streamId(id));
    if (revision === undefined) {
      id = { token };
      revision = await this.store.streamRevision(sessionStreams.streamId(id));
    }
    if (revision === undefined) return undefined;
    const cached = this.cache.get(token);
    if (cached && cached.revision === revision) return cached.session;
    const loaded = await sessionStreams.load(this.store, id);
    const { session } = loaded.state;
    if (session && loaded.revision !== undefined) this.remember(token, { revision: loaded.revision, session });
    return session;
  }

  /**
   * Whose session `token` is: fixed by its launch, so a session this process has found before is
   * answered from memory, without looking at its stream (the rate limits ask it on every request).
   */
  async ownerOf(token: string): Promise<Pick<GameSession, 'operatorId' | 'playerId'> | undefined> {
    return this.cache.get(token)?.session ?? (await this.find(token));
  }

  /** The session, if it may still be played now; otherwise the domain's refusal (SESSION_NOT_FOUND, SESSION_EXPIRED). */
  async playable(token: string): Promise<GameSession | Refusal> {
    return playableSession(await this.find(token), this.clock.now());
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
