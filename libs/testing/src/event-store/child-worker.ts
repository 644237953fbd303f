import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Writable } from 'node:stream';

/**
 * A TypeScript worker (`node --import tsx file.ts`) driven through stdin and read line by line on
 * stdout. Workers exit when their stdin closes, so a dying test run takes them along.
 */
export class ChildWorker {
  readonly child: ChildProcess;
  private readonly stdin: Writable;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly lines: string[] = [];
  private consumed = 0;
  private readonly stderr: string[] = [];
  private readonly listeners = new Set<() => void>();
  private hasExited = false;

  constructor(file: string, env: Record<string, string>) {
    this.child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: repositoryRoot(dirname(file)),
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const { stdin, stdout, stderr } = this.child;
    if (!stdin || !stdout || !stderr) throw new Error(`could not open pipes to ${file}`);
    this.stdin = stdin;
    createInterface({ input: stdout }).on('line', (line) => {
      this.lines.push(line);
      this.notify();
    });
    stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString()));
    this.exited = new Promise((resolve) => {
      this.child.once('exit', (code, signal) => {
        this.hasExited = true;
        this.notify();
        resolve({ code, signal });
      });
    });
  }

  get alive(): boolean {
    return !this.hasExited;
  }

  send(message: unknown): void {
    this.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** The next unread stdout line that parses as JSON and satisfies `accept`; earlier lines are skipped. */
  nextMessage<T>(accept: (message: Record<string, unknown>) => boolean, timeoutMs: number): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        while (this.consumed < this.lines.length) {
          const line = this.lines[this.consumed++] ?? '';
          const message = parseLine(line);
          if (message && accept(message)) return finish(() => resolve(message as T));
        }
        if (this.hasExited) finish(() => reject(new Error(`worker exited before answering: ${this.diagnostics()}`)));
      };
      const finish = (settle: () => void): void => {
        clearTimeout(timer);
        this.listeners.delete(check);
        settle();
      };
      const timer = setTimeout(
        () => finish(() => reject(new Error(`no answer within ${timeoutMs} ms: ${this.diagnostics()}`))),
        timeoutMs,
      );
      this.listeners.add(check);
      check();
    });
  }

  async kill(): Promise<void> {
    if (this.alive) this.child.kill('SIGKILL');
    await this.exited;
  }

  /** Closes stdin (the worker's signal to finish) and waits for the exit. */
  async end(): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.stdin.end();
    return this.exited;
  }

  diagnostics(): string {
    return `stdout: ${this.lines.slice(-5).join(' | ')}; stderr: ${this.stderr.join('').slice(-2_000)}`;
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }
}

function parseLine(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The directory whose node_modules holds tsx, so `--import tsx` resolves wherever the file lives. */
function repositoryRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', 'tsx', 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no node_modules/tsx above ${from}`);
  }
}
