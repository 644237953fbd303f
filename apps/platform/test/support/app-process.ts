/**
 * One reelstream process as a supervisor sees it: spawned with an environment, its JSON log lines
 * kept, its `ready` line (every app logs one through `runService`) awaited, killed by signal.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const REPOSITORY_ROOT = join(import.meta.dirname, '..', '..', '..', '..');

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class AppProcess {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  readonly exited: Promise<Exit>;
  private stderrText = '';
  private readonly waiters = new Set<() => void>();

  /**
   * `entry` is a TypeScript main (run through tsx) or a built main.js; `nodeArgs` go to node before
   * it (the benches pass `--cpu-prof` there: NODE_OPTIONS may not carry it). `root` is the checkout it
   * runs from: this repository's unless another is named (`bench:e2e:against` runs another commit's).
   */
  constructor(
    readonly name: string,
    entry: string,
    env: Record<string, string>,
    nodeArgs: readonly string[] = [],
    root: string = REPOSITORY_ROOT,
  ) {
    const args = [...nodeArgs, ...(entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry])];
    this.child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { stdout, stderr } = this.child;
    if (!stdout || !stderr) throw new Error(`${name} spawned without pipes`);
    createInterface({ input: stdout }).on('line', (line) => {
      this.lines.push(line);
      for (const wake of [...this.waiters]) wake();
    });
    stderr.on('data', (chunk: Buffer) => {
      this.stderrText = (this.stderrText + chunk.toString()).slice(-8_000);
    });
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    void this.exited.then(() => {
      for (const wake of [...this.waiters]) wake();
    });
  }

  get stderr(): string {
    return this.stderrText;
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves with the first stdout line `match` accepts; fails if the process exits first or time runs out. */
  waitForLine(match: (line: string) => boolean, timeoutMs = 30_000): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => finish(new Error(`${this.name}: no such line within ${timeoutMs} ms; ${this.diagnostics()}`)),
        timeoutMs,
      );
      const finish = (outcome: string | Error) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (outcome instanceof Error) reject(outcome);
        else resolve(outcome);
      };
      const check = () => {
        const line = this.lines.find(match);
        if (line !== undefined) finish(line);
        else if (!this.running) finish(new Error(`${this.name} exited before the line came; ${this.diagnostics()}`));
      };
      this.waiters.add(check);
      check();
    });
  }

  /** The fields of the `ready` log line. */
  async ready(timeoutMs = 60_000): Promise<Record<string, unknown>> {
    const line = await this.waitForLine((candidate) => candidate.includes('"msg":"ready"'), timeoutMs);
    return JSON.parse(line) as Record<string, unknown>;
  }

  async kill(signal: NodeJS.Signals): Promise<Exit> {
    if (this.running) this.child.kill(signal);
    return this.exited;
  }

  diagnostics(): string {
    return `stdout: ${this.lines.slice(-6).join('\n')}\nstderr: ${this.stderrText.slice(-2_000)}`;
  }
}
