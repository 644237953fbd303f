import { z } from 'zod';
import { ReelstreamError } from '@reelstream/contracts';

export class InvalidConnectionStringError extends ReelstreamError {
  override readonly name = 'InvalidConnectionStringError';
  constructor(
    readonly connectionString: string,
    reason: string,
  ) {
    super(
      'CONFIGURATION_INVALID',
      `invalid EventStoreDB connection string ${JSON.stringify(redact(connectionString))}: ${reason}`,
      { retriable: false },
    );
  }
}

/** Hides a password (`esdb://user:secret@host`) before the string reaches an error message or a log. */
export function redact(connectionString: string): string {
  return connectionString.replace(/^(esdb(?:\+discover)?:\/\/[^:@/]+:)[^@/]*@/i, '$1***@');
}

const hostPort = z.string().regex(/^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/);

/**
 * Checks an `esdb://` or `esdb+discover://` connection string before the client sees it: the scheme,
 * at least one host, and no `throwOnAppendFailure=false` (the adapter relies on conflicts being thrown).
 * Returns the string unchanged so it can go straight to `EventStoreDBClient.connectionString`.
 */
export function validateConnectionString(connectionString: string): string {
  const match = /^esdb(\+discover)?:\/\/(?:[^@/?]+@)?([^/?]*)\/?(?:\?(.*))?$/i.exec(connectionString.trim());
  if (!match)
    throw new InvalidConnectionStringError(connectionString, 'expected esdb://host:port[,host:port…][?options]');
  const hosts = (match[2] ?? '').split(',').filter((host) => host.length > 0);
  if (hosts.length === 0) throw new InvalidConnectionStringError(connectionString, 'no host');
  for (const host of hosts) {
    if (!hostPort.safeParse(host).success)
      throw new InvalidConnectionStringError(connectionString, `bad host ${JSON.stringify(host)}`);
    const port = /:(\d+)$/.exec(host)?.[1];
    if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) {
      throw new InvalidConnectionStringError(connectionString, `bad port in ${JSON.stringify(host)}`);
    }
  }
  const query = new URLSearchParams(match[3] ?? '');
  for (const [key, value] of query) {
    if (key.toLowerCase() === 'throwonappendfailure' && value.toLowerCase() === 'false') {
      throw new InvalidConnectionStringError(
        connectionString,
        'throwOnAppendFailure=false would turn conflicts into silent no-ops',
      );
    }
  }
  return connectionString.trim();
}
