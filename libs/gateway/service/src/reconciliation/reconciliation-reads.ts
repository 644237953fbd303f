/**
 * The reconciliation lists' read model and the projection that keeps it
 * (docs/adr/0017-reconciliation-projections.md): the gateway's own SQLite file (`:memory:` when
 * none is configured, projected again from the log at each start).
 */
import type { EventStore } from '@reelstream/platform-ports';
import type { Logger } from '@reelstream/platform-telemetry';
import {
  startReconciliationProjection,
  type ReconciliationProjection,
  type ReconciliationReadModel,
  type ReconciliationReadModels,
} from '@reelstream/wallet-application';

export interface ReconciliationReads {
  readonly readModel: ReconciliationReadModel;
  readonly projection: ReconciliationProjection;
  /** Stops the projection (its last batch committed) and closes the file. */
  close(): Promise<void>;
}

interface ReconciliationReadsOptions {
  store: EventStore;
  /** How the read model is opened (the wallet adapters' SQLite one). */
  readModels: ReconciliationReadModels;
  logger: Logger;
  /** The read model's file; undefined: in memory. */
  file?: string;
  /** How long a list waits for the projection to hold every event stored when it was asked (then 503). */
  catchUpTimeoutMs?: number;
}

export function openReconciliationReads(options: ReconciliationReadsOptions): ReconciliationReads {
  const { store, logger } = options;
  // Stryker disable next-line StringLiteral: equivalent: SQLite opens '' as a private temporary database that, like ':memory:', no other connection sees and that is gone on close
  const readModel = options.readModels.open(options.file ?? ':memory:', {
    comparePositions: (a, b) => store.comparePositions(a, b),
  });
  const projection = startReconciliationProjection({
    store,
    projection: readModel,
    catchUpTimeoutMs: options.catchUpTimeoutMs,
    onError: (error) => logger.warn('reconciliation read model: a batch failed; retrying', { error }),
  });
  return {
    readModel,
    projection,
    async close() {
      await projection.stop();
      readModel.close();
    },
  };
}
