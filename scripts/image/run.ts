/**
 * Commands of `npm run test:image`: run to completion, their output either passed through (long
 * builds, so CI shows their progress) or kept (to read an id or a status from it).
 */
import { spawn } from 'node:child_process';

export interface RunOptions {
  /** Pass stdout/stderr through instead of keeping them. */
  readonly inherit?: boolean;
  /** Fed to stdin, then closed. */
  readonly input?: NodeJS.ReadableStream;
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  /** A non-zero exit is returned, not thrown. */
  readonly allowFailure?: boolean;
}

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Heavy commands only use idle CPU and disk: other work on the machine goes first. */
export const NICE = ['nice', '-n', '19', 'ionice', '-c3'] as const;

export async function run(command: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const [file, ...args] = command;
  if (!file) throw new Error('run: empty command');
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    stdio: [
      options.input ? 'pipe' : 'ignore',
      options.inherit ? 'inherit' : 'pipe',
      options.inherit ? 'inherit' : 'pipe',
    ],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  if (options.input && child.stdin) options.input.pipe(child.stdin);
  const code = await new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode, signal) => resolve(exitCode ?? (signal ? 128 : 1)));
  });
  if (code !== 0 && !options.allowFailure) {
    const tail = `${stdout}${stderr}`.trim().split('\n').slice(-20).join('\n');
    throw new Error(`${command.join(' ')} exited with ${code}${tail ? `:\n${tail}` : ''}`);
  }
  return { code, stdout, stderr };
}

/** Whether `name` is on the PATH. */
export async function installed(name: string): Promise<boolean> {
  return (await run(['sh', '-c', `command -v ${name}`], { allowFailure: true })).code === 0;
}
