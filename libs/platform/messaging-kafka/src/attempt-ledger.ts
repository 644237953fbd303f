import type { Admin } from 'kafkajs';

/**
 * What a partition's owner leaves in the metadata of its committed offset, so that a process killed
 * mid-handler (OOM, liveness probe) does not take its attempt count with it:
 * - `in-flight`: handlers may be running on records up to `upTo` (written before a batch starts);
 * - `attempts`: the handler is about to run on the record at `offset` for the `attempts`-th time
 *   (written before every attempt while records a dead owner left in flight are redelivered).
 * The committed offset itself is unchanged by these marks: they ride on commits of the same position.
 */
export type LedgerEntry = { kind: 'in-flight'; upTo: bigint } | { kind: 'attempts'; offset: bigint; attempts: number };

const PREFIX = 'reelstream/1 ';

export function encodeLedgerEntry(entry: LedgerEntry): string {
  return entry.kind === 'in-flight'
    ? `${PREFIX}in-flight ${entry.upTo}`
    : `${PREFIX}attempts ${entry.offset} ${entry.attempts}`;
}

/** Metadata another client wrote, or none, reads as no entry: nothing is known to have been in flight. */
export function decodeLedgerEntry(metadata: string | null | undefined): LedgerEntry | undefined {
  if (!metadata?.startsWith(PREFIX)) return undefined;
  const [kind, first, second] = metadata.slice(PREFIX.length).split(' ');
  if (kind === 'in-flight' && first && /^\d+$/.test(first)) return { kind, upTo: BigInt(first) };
  if (kind === 'attempts' && first && /^\d+$/.test(first) && second && /^\d+$/.test(second)) {
    return { kind, offset: BigInt(first), attempts: Number(second) };
  }
  return undefined;
}

/** The last record a dead owner may have had in flight: records up to it are redelivered one at a time. */
export function suspectUpTo(entry: LedgerEntry | undefined): bigint | undefined {
  if (!entry) return undefined;
  return entry.kind === 'in-flight' ? entry.upTo : entry.offset;
}

/** Attempts already spent on `offset` by earlier owners of the partition. */
export function attemptsSpent(entry: LedgerEntry | undefined, offset: bigint): number {
  return entry?.kind === 'attempts' && entry.offset === offset ? entry.attempts : 0;
}

/** Reads what the partition's last owner left in its committed offset's metadata (one OffsetFetch). */
export async function readLedgerEntry(
  admin: Pick<Admin, 'fetchOffsets'>,
  groupId: string,
  topic: string,
  partition: number,
): Promise<LedgerEntry | undefined> {
  const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
  const entry = committed?.partitions.find((candidate) => candidate.partition === partition);
  return decodeLedgerEntry(entry?.metadata);
}
