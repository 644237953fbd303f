/**
 * What `reelstream export` replays the log through: the reports' LogIndex, taught by every event,
 * and the rows of one kind (ExportRowsFold). Every event is read, so a round or transaction closed
 * inside the exported window is known by its earlier events.
 */
import { DEFAULT_MEMORY_HORIZON_MS, LogIndex, type LogEvent } from '../log-index.js';
import { ExportRowsFold, type EmittedRow, type ExportKind } from './export-rows.js';

/** Events between two looks at the log clock (as AnalyticsFold). */
const CLOCK_EVERY = 1024;

export class ExportReplayFold {
  readonly index: LogIndex;
  private readonly rows: ExportRowsFold;
  private seen = 0;

  constructor(kind: ExportKind, emit: (emitted: EmittedRow) => void, horizonMs = DEFAULT_MEMORY_HORIZON_MS) {
    this.index = new LogIndex(horizonMs);
    this.rows = new ExportRowsFold(kind, horizonMs, emit);
  }

  apply(entry: LogEvent): boolean {
    if (this.seen % CLOCK_EVERY === 0) {
      this.index.advance(entry.occurredAtMs);
      this.rows.advance(entry.occurredAtMs);
    }
    this.seen += 1;
    this.index.learn(entry);
    this.rows.apply(entry, this.index);
    return true;
  }
}
