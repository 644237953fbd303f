/**
 * The files `reelstream export` writes, a row at a time: CSV (RFC 4180, a header row, money in minor
 * units) and Parquet (hyparquet-writer: one row group per ROW_GROUP_SIZE rows, each written to the
 * file as it fills, so memory holds one row group whatever the log's size). Both are written to a
 * partial file and renamed when complete: a crash leaves no half file under the real name.
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import type { ExportColumn, ExportRow } from '@reelstream/analytics-domain';
import { fileWriter, ParquetWriter, schemaFromColumnData, type ColumnSource } from 'hyparquet-writer';

export const EXPORT_FORMATS = ['csv', 'parquet'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** Rows per Parquet row group (and per CSV write). */
const ROW_GROUP_SIZE = 10_000;

export interface RowWriter {
  write(row: ExportRow): void;
  /** Writes what is buffered, closes the file and gives it its name. */
  finish(path: string): void;
  /** Removes the partial file (an error stopped the export). */
  abort(): void;
  readonly rows: number;
}

function csvCell(value: ExportRow[string] | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

class CsvRowWriter implements RowWriter {
  rows = 0;
  private readonly fd: number;
  private buffer: string[] = [];

  constructor(
    private readonly partial: string,
    private readonly columns: readonly ExportColumn[],
  ) {
    this.fd = openSync(partial, 'w');
    this.buffer.push(columns.map((column) => column.name).join(','));
  }

  write(row: ExportRow): void {
    this.buffer.push(this.columns.map((column) => csvCell(row[column.name])).join(','));
    this.rows += 1;
    if (this.buffer.length >= ROW_GROUP_SIZE) this.flush();
  }

  finish(path: string): void {
    this.flush();
    closeSync(this.fd);
    renameSync(this.partial, path);
  }

  abort(): void {
    closeSync(this.fd);
    rmSync(this.partial, { force: true });
  }

  private flush(): void {
    if (this.buffer.length === 0) return;
    writeSync(this.fd, `${this.buffer.join('\n')}\n`);
    this.buffer = [];
  }
}

const PARQUET_TYPES = { text: 'STRING', integer: 'INT64', boolean: 'BOOLEAN', instant: 'TIMESTAMP' } as const;

function parquetValue(column: ExportColumn, value: ExportRow[string] | undefined): unknown {
  if (value === null || value === undefined) return null;
  if (column.type === 'integer') return BigInt(value as number);
  if (column.type === 'instant') return new Date(value as string);
  return value;
}

class ParquetRowWriter implements RowWriter {
  rows = 0;
  private readonly writer: ParquetWriter;
  private pending: ExportRow[] = [];

  constructor(
    private readonly partial: string,
    private readonly columns: readonly ExportColumn[],
  ) {
    const columnData = this.columnData([]);
    this.writer = new ParquetWriter({
      writer: fileWriter(partial),
      schema: schemaFromColumnData({ columnData }),
      kvMetadata: [{ key: 'created_by_tool', value: 'reelstream export' }],
    });
  }

  write(row: ExportRow): void {
    this.pending.push(row);
    this.rows += 1;
    if (this.pending.length >= ROW_GROUP_SIZE) this.flush();
  }

  finish(path: string): void {
    this.flush();
    void this.writer.finish();
    renameSync(this.partial, path);
  }

  abort(): void {
    rmSync(this.partial, { force: true });
  }

  private columnData(rows: readonly ExportRow[]): ColumnSource[] {
    return this.columns.map((column) => ({
      name: column.name,
      type: PARQUET_TYPES[column.type],
      nullable: column.nullable,
      data: rows.map((row) => parquetValue(column, row[column.name])),
    }));
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    // fileWriter writes synchronously: the row group is in the file when write returns.
    void this.writer.write({ columnData: this.columnData(this.pending), rowGroupSize: this.pending.length });
    this.pending = [];
  }
}

/** A writer of `partial`, renamed by `finish`. */
export function openRowWriter(format: ExportFormat, partial: string, columns: readonly ExportColumn[]): RowWriter {
  return format === 'csv' ? new CsvRowWriter(partial, columns) : new ParquetRowWriter(partial, columns);
}
