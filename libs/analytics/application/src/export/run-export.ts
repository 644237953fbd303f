/**
 * `reelstream export`: replays the whole log through ExportReplayFold and writes the rows of one
 * kind whose closing event falls in the window (`--from` inclusive, `--to` exclusive, in each
 * operator's time zone as everywhere else) and that an earlier run with the same checkpoint did not
 * write.
 *
 * The checkpoint says which rows were written: every row whose closing event is at or before its
 * `position` in the log and before its `to` (and at or after its `from`). A run exports the rows of
 * its window that are after that position or at/after that `to`, then records the last position it
 * read and its own `to`. So a daily job exports what is new since, a re-run of the same window
 * exports nothing twice, and an event appended late with an earlier time is still exported once.
 * That holds while `to` only moves forward and `from` stays: a `--to` earlier than the checkpoint's,
 * a `--to` after a checkpoint written without one, or another `--from`, is refused.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  EXPORT_COLUMNS,
  ExportReplayFold,
  type ExportKind,
  type LogEvent,
  type TimeRange,
} from '@reelstream/analytics-domain';
import type { EventStore } from '@reelstream/platform-ports';
import { replay } from '../replay.js';
import { rangeResolver, type TimeArgument } from '../time-range.js';
import { openRowWriter, type ExportFormat, type RowWriter } from './row-writers.js';
import { ReelstreamError } from '@reelstream/contracts';

/** Bad input the analyst can fix: the CLI prints it and exits 2. */
/** Export options that cannot be used together: not retriable. */
export class ExportArgumentError extends ReelstreamError {
  override readonly name = 'ExportArgumentError';
  constructor(message: string) {
    super('VALIDATION_FAILED', message, { retriable: false });
  }
}

export interface ExportCheckpoint {
  readonly version: 1;
  readonly kind: ExportKind;
  /** The last event the export read; undefined for an empty log. */
  readonly position: string | null;
  /** Its time. */
  readonly positionAt: string | null;
  /** `--from` and `--to` as given (times in each operator's zone unless they carry an offset); null: unbounded. */
  readonly from: string | null;
  readonly to: string | null;
  /** Rows written under this checkpoint, all runs together. */
  readonly rows: number;
}

export interface ExportRequest {
  readonly store: EventStore;
  readonly kind: ExportKind;
  readonly format: ExportFormat;
  /** A file, or an existing directory (the file is then named `<kind>-<position>.<ext>`). */
  readonly out: string;
  readonly from?: { text: string; time: TimeArgument } | undefined;
  readonly to?: { text: string; time: TimeArgument } | undefined;
  readonly checkpointPath?: string | undefined;
  readonly timeZoneOf: (operatorId: string) => string;
  /** Parses a checkpoint's stored `--from`/`--to`. */
  readonly parseTime: (option: string, text: string) => TimeArgument;
  readonly onProgress?: (progress: { events: number; position: string | undefined }) => void;
}

export interface ExportResult {
  readonly path: string;
  readonly rows: number;
  readonly events: number;
  readonly checkpoint: ExportCheckpoint | undefined;
}

export function readCheckpoint(path: string, kind: ExportKind): ExportCheckpoint | undefined {
  if (!existsSync(path)) return undefined;
  let parsed: Partial<ExportCheckpoint>;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<ExportCheckpoint>;
  } catch (error) {
    throw new ExportArgumentError(`checkpoint ${path} cannot be read: ${(error as Error).message}`);
  }
  if (parsed.version !== 1 || typeof parsed.rows !== 'number')
    throw new ExportArgumentError(`checkpoint ${path} is not a reelstream export checkpoint`);
  if (parsed.kind !== kind)
    throw new ExportArgumentError(
      `checkpoint ${path} is for ${String(parsed.kind)}, not ${kind}: one checkpoint per kind`,
    );
  return parsed as ExportCheckpoint;
}

function recordCheckpoint(path: string, checkpoint: ExportCheckpoint): ExportCheckpoint {
  // Created when missing, its directory too: a daily job's first run needs nothing prepared.
  mkdirSync(dirname(path), { recursive: true });
  const partial = join(dirname(path), `.${basename(path)}.partial`);
  writeFileSync(partial, `${JSON.stringify(checkpoint, null, 2)}\n`);
  renameSync(partial, path);
  return checkpoint;
}

const EXTENSIONS: Record<ExportFormat, string> = { csv: 'csv', parquet: 'parquet' };

/** The file to write: `out` itself, or in a directory a name no earlier run used. */
function targetOf(out: string, kind: ExportKind, format: ExportFormat, position: string | null): string {
  if (!isDirectory(out)) return out;
  const stem = position === null ? kind : `${kind}-${position.replace(/[^0-9A-Za-z_.-]/g, '_')}`;
  let path = join(out, `${stem}.${EXTENSIONS[format]}`);
  for (let n = 1; existsSync(path); n++) path = join(out, `${stem}-${n}.${EXTENSIONS[format]}`);
  return path;
}

const isDirectory = (path: string) => path.endsWith('/') || (existsSync(path) && statSync(path).isDirectory());

/** The window a run exports, and the checkpoint's window it continues. */
function windows(request: ExportRequest, previous: ExportCheckpoint | undefined) {
  const fromText = request.from?.text ?? previous?.from ?? null;
  if (previous && request.from && previous.from !== request.from.text)
    throw new ExportArgumentError(
      `--from ${request.from.text} is not the checkpoint's (${previous.from ?? 'none'}): a checkpoint continues one --from; start a new checkpoint`,
    );
  if (previous && previous.position !== null && previous.to === null && request.to)
    throw new ExportArgumentError(
      `the checkpoint has every row up to position ${previous.position}; a --to would leave some of them counted twice later: run without --to, or start a new checkpoint`,
    );
  const from = fromText === null ? undefined : (request.from?.time ?? request.parseTime('--from', fromText));
  const to = request.to?.time;
  const range = from || to ? rangeResolver(from, to, request.timeZoneOf) : () => ({}) as TimeRange;
  const probe = range(undefined);
  if (probe.fromMs !== undefined && probe.toMs !== undefined && probe.fromMs >= probe.toMs)
    throw new ExportArgumentError(`--to ${request.to?.text} is not after --from ${fromText}`);
  const previousTo = previous?.to == null ? undefined : request.parseTime('--to', previous.to);
  const done = previousTo ? rangeResolver(undefined, previousTo, request.timeZoneOf) : undefined;
  if (done && to) {
    const before = done(undefined).toMs ?? 0;
    if ((probe.toMs ?? 0) < before)
      throw new ExportArgumentError(
        `--to ${request.to?.text} is before the checkpoint's --to ${previous?.to}: the checkpoint only moves forward`,
      );
  }
  return { fromText, range, done };
}

/** The writer of the rows, on a partial file beside `out` until the run finishes. */
function openWriter({ out, kind, format }: ExportRequest): RowWriter {
  const outDir = isDirectory(out) ? out : dirname(out);
  const partial = join(outDir, `.reelstream-export-${kind}-${process.pid}.partial`);
  try {
    if (out.endsWith('/') && !existsSync(out)) mkdirSync(out, { recursive: true });
    return openRowWriter(format, partial, EXPORT_COLUMNS[kind]);
  } catch (error) {
    throw new ExportArgumentError(`cannot write ${out}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

export async function runExport(request: ExportRequest): Promise<ExportResult> {
  const { kind, format } = request;
  const previous = request.checkpointPath ? readCheckpoint(request.checkpointPath, kind) : undefined;
  const { fromText, range, done } = windows(request, previous);
  const writer = openWriter(request);
  const checkpointPosition = previous?.position ?? null;
  let passed = checkpointPosition === null;
  let last: LogEvent | undefined;
  const wanted = (entry: LogEvent, operatorId: string): boolean => {
    const window = range(operatorId);
    const at = entry.occurredAtMs;
    if (window.fromMs !== undefined && at < window.fromMs) return false;
    if (window.toMs !== undefined && at >= window.toMs) return false;
    if (passed) return true;
    // At or before the checkpoint's position: written then, unless it was at or after the checkpoint's --to.
    const doneTo = done?.(operatorId).toMs;
    return doneTo !== undefined && at >= doneTo;
  };
  const fold = new ExportReplayFold(kind, ({ row, entry }) => {
    if (wanted(entry, String(row['operatorId']))) writer.write(row);
  });
  let events = 0;
  try {
    const progress = await replay({
      store: request.store,
      fold: {
        apply(entry) {
          fold.apply(entry);
          last = entry;
          if (entry.position === checkpointPosition) passed = true;
          return true;
        },
      },
      ...(request.onProgress ? { onProgress: request.onProgress } : {}),
    });
    events = progress.events;
    if (!passed)
      throw new ExportArgumentError(
        `the checkpoint's position ${checkpointPosition} is not in this log (another source, or a log rewritten since): start a new checkpoint`,
      );
  } catch (error) {
    writer.abort();
    throw error;
  }
  const position = last?.position ?? checkpointPosition;
  const path = targetOf(request.out, kind, format, request.checkpointPath ? position : null);
  writer.finish(path);
  const checkpoint = request.checkpointPath
    ? recordCheckpoint(request.checkpointPath, {
        version: 1,
        kind,
        position,
        positionAt: last?.occurredAt ?? previous?.positionAt ?? null,
        from: fromText,
        to: request.to?.text ?? null,
        rows: (previous?.rows ?? 0) + writer.rows,
      })
    : undefined;
  return { path, rows: writer.rows, events, checkpoint };
}
