import type { AllStreamResolvedEvent } from '@eventstore/db-client';

/** A resolved event as `@eventstore/db-client` 6.2 hands it over (see dist/utils/convertGrpcEvent.js). */
export function resolvedEvent(fields: {
  streamId: string;
  revision?: bigint;
  type?: string;
  data?: unknown;
  metadata?: unknown;
  commit: bigint;
  prepare?: bigint;
  id?: string;
  created?: Date;
}): AllStreamResolvedEvent {
  return {
    event: {
      streamId: fields.streamId,
      id: fields.id ?? '6f0c3c8e-7a49-4b8e-9a47-2f4f6a3f0a01',
      revision: fields.revision ?? 0n,
      type: fields.type ?? 'RoundStarted',
      data: (fields.data ?? {}) as Record<string, unknown>,
      metadata: fields.metadata as Record<string, unknown>,
      isJson: true,
      created: fields.created ?? new Date('2026-03-01T10:00:00.000Z'),
      position: { commit: fields.commit, prepare: fields.prepare ?? fields.commit },
    },
    commitPosition: fields.commit,
  };
}
