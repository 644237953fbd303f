import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';

export interface WorkerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** A TypeScript child process (`node --import tsx file.ts`) whose stdout is read line by line. */
export class WorkerProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<WorkerExit>;
  private readonly lines: string[] = [];
  private readonly stderr: string[] = [];
  private readonly listeners = new Set<() => void>();
  private exit: WorkerExit | undefined;

  constructor(file: string, env: Record<string, string>) {
    this.child = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: repositoryRoot(dirname(file)),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { stdout, stderr } = this.child;
    if (!stdout || !stderr) throw new Error('worker spawned without stdout/stderr pipes');
    createInterface({ input: stdout }).on('line', (line) => {
      this.lines.push(line);
      for (const listener of [...this.listeners]) listener();
    });
    stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString()));
    this.exited = new Promise((resolve) => {
      const ended = (exit: WorkerExit) => {
        if (this.exit) return;
        this.exit = exit;
        for (const listener of [...this.listeners]) listener();
        resolve(exit);
      };
      this.child.once('exit', (code, signal) => ended({ code, signal }));
      this.child.once('error', (error) => {
        this.stderr.push(`spawn failed: ${error.message}`);
        ended({ code: null, signal: null });
      });
    });
  }

  get alive(): boolean {
    return this.exit === undefined;
  }

  /** Resolves with the first stdout line matching `pattern`; rejects if the process exits or time runs out first. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined = undefined;
      const check = () => {
        for (const line of this.lines) {
          const match = pattern.exec(line);
          if (match) return finish(() => resolve(match));
        }
        if (this.exit)
          finish(() =>
            reject(
              new Error(
                `worker exited (${JSON.stringify(this.exit)}) before printing ${pattern}: ${this.diagnostics()}`,
              ),
            ),
          );
      };
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        this.listeners.delete(check);
        settle();
      };
      timer = setTimeout(
        () =>
          finish(() => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms: ${this.diagnostics()}`))),
        timeoutMs,
      );
      this.listeners.add(check);
      check();
    });
  }

  async kill(signal: NodeJS.Signals): Promise<WorkerExit> {
    if (this.alive) this.child.kill(signal);
    return this.exited;
  }

  diagnostics(): string {
    return `stdout: ${this.lines.slice(-5).join(' | ')}; stderr: ${this.stderr.join('').slice(-2_000)}`;
  }
}

/** The directory whose node_modules holds tsx, so `--import tsx` resolves wherever the file lives. */
function repositoryRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', 'tsx', 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no node_modules/tsx above ${from}`);
  }
}
