import type { EventStoreDBClient } from '@eventstore/db-client';

/**
 * The oldest server this adapter runs against: KurrentDB 25.0.1. Before it, a filtered `$all`
 * subscription could send a checkpoint at the position of an event not yet delivered (KurrentDB#4970,
 * fixed in 25.0.1 by KurrentDB#4991; earlier, the checkpoint sent on going live, KurrentDB#4023). The
 * subscription holds every server checkpoint until an item past it arrives, so it does not rely on the
 * fix; the floor keeps a cluster off servers whose checkpoints nothing here was proven against.
 * docs/adr/0025-eventstoredb-server-checkpoints.md gives the sources.
 */
const OLDEST_SERVER = [25, 0, 1] as const;

/** Why the server of `version` (as its ServerFeatures service reports it) is refused, or undefined. */
export function refusedServerVersion(version: string): string | undefined {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) return `its version is not known (${JSON.stringify(version)}): servers before 21.10 do not report one`;
  const parts = match.slice(1, 4).map(Number);
  for (const [index, oldest] of OLDEST_SERVER.entries()) {
    const part = parts[index] ?? 0;
    if (part > oldest) return undefined;
    if (part < oldest) return `version ${version} is older than ${OLDEST_SERVER.join('.')}`;
  }
  return undefined;
}

/**
 * The server's version as the client learned it on connecting. The client keeps it behind a
 * protected getter (`capabilities`, of exactly the client version package.json pins); a server
 * without the ServerFeatures service answers "unknown".
 */
export async function serverVersionOf(client: EventStoreDBClient): Promise<string> {
  const features = await (client as unknown as { capabilities: Promise<{ serverVersion: string }> }).capabilities;
  return features.serverVersion;
}
