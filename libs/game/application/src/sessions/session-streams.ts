/**
 * Launch sessions' streams, a command handler bound once: `session-sha256.{key}` (the token's
 * SHA-256, `sessionKeyOf`), or `session-{token}` for a session launched before the log stopped
 * holding tokens.
 */
import { sessionKeyStream, sessionStream, streamEventParser } from '@reelstream/contracts';
import { sessionDecider } from '@reelstream/game-domain';
import { commandHandler } from '@reelstream/platform-eventsourcing';

/** Names a session's stream: the key of its token, or (launched before the keys) the token. */
export type SessionStreamId = { readonly key: string } | { readonly token: string };

export const sessionStreams = commandHandler({
  decider: sessionDecider,
  streamId: (id: SessionStreamId) => ('key' in id ? sessionKeyStream(id.key) : sessionStream(id.token)),
  parse: streamEventParser('session'),
});
