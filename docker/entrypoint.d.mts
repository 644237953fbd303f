/** Types of docker/entrypoint.mjs (plain JavaScript: the image runs it without a TypeScript runner). */
export type Entry =
  | { readonly run: string; readonly args: readonly string[] }
  | { readonly node: readonly string[] }
  | { readonly usage: true; readonly exitCode: number; readonly error?: string };

export function entryFor(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  distDir: string,
): Entry;
