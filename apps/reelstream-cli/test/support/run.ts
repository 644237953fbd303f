/** The CLI in this process (`runCli`, what the bin runs) with its output captured, and as the real bin. */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { promisify } from 'node:util';
import { runCli } from '../../src/run-cli.js';

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function capture(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

export async function cli(argv: readonly string[], cwd = process.cwd()): Promise<CliRun> {
  const out = capture();
  const err = capture();
  const code = await runCli(argv, { stdout: out.stream, stderr: err.stream, env: process.env, cwd });
  await new Promise((resolve) => setImmediate(resolve));
  return { code, stdout: out.text(), stderr: err.text() };
}

export const REPOSITORY_ROOT = join(import.meta.dirname, '..', '..', '..', '..');

/** `node apps/reelstream-cli/bin/reelstream.mjs …`: the package bin, in its own process. */
export async function bin(argv: readonly string[]): Promise<CliRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      [join(REPOSITORY_ROOT, 'apps', 'reelstream-cli', 'bin', 'reelstream.mjs'), ...argv],
      { cwd: REPOSITORY_ROOT },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}
