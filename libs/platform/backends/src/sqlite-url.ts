import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { z } from 'zod';

export interface SqliteUrl<Options> {
  /** Absolute path of the database file (its directory exists once parsed by `openSqliteUrl`). */
  path: string;
  options: Options;
}

/**
 * `sqlite:<path>[?option=value…]`; a relative path is relative to the working directory, and
 * `sqlite:///abs/file.db` and `sqlite:/abs/file.db` both name /abs/file.db. `variable` names the
 * setting in error messages; `querySchema` lists the tuning options the URL may carry.
 */
export function parseSqliteUrl<Options>(
  url: string,
  variable: string,
  querySchema: z.ZodType<Options>,
): SqliteUrl<Options> {
  const rest = url.slice('sqlite:'.length);
  const queryAt = rest.indexOf('?');
  const rawPath = queryAt < 0 ? rest : rest.slice(0, queryAt);
  const path = rawPath.startsWith('//') ? rawPath.slice(2) : rawPath;
  if (path.length === 0)
    throw new Error(`${variable} ${url} names no file: use sqlite:<path>, e.g. sqlite:./data/reelstream.db`);
  const parsed = querySchema.safeParse(
    Object.fromEntries(new URLSearchParams(queryAt < 0 ? '' : rest.slice(queryAt + 1))),
  );
  if (!parsed.success) throw new Error(`${variable} ${url}: ${z.prettifyError(parsed.error)}`);
  const options = Object.fromEntries(
    Object.entries(parsed.data as object).filter(([, value]) => value !== undefined),
  ) as Options;
  return { path: resolve(decodeURIComponent(path)), options };
}

/** Creates the directory the database file goes in. */
export function ensureParentDirectory(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
}

export function unsupportedScheme(variable: string, url: string, supported: string): Error {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0] ?? '(none)';
  return new Error(`unsupported ${variable} ${url}: scheme ${scheme} is not supported (use ${supported})`);
}
