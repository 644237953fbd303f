/** The real dispatcher as a child process (`node --import tsx apps/wallet-dispatcher/src/main.ts`), its stdout kept line by line. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const REPOSITORY_ROOT = join(import.meta.dirname, '..', '..', '..');
const MAIN = join(REPOSITORY_ROOT, 'apps', 'wallet-dispatcher', 'src', 'main.ts');

export class DispatcherProcess {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  readonly ready: Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private stderr = '';

  constructor(env: Record<string, string>) {
    this.child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
      cwd: REPOSITORY_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const { stdout, stderr } = this.child;
    if (!stdout || !stderr) throw new Error('dispatcher spawned without stdout/stderr pipes');
    let markReady: () => void = () => undefined;
    this.ready = new Promise((resolve) => (markReady = resolve));
    createInterface({ input: stdout }).on('line', (line) => {
      this.lines.push(line);
      if (line.includes('"msg":"ready"')) markReady();
    });
    stderr.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-4_000)));
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
  }

  count(message: string): number {
    return this.lines.filter((line) => line.includes(`"msg":"${message}"`)).length;
  }

  async kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill(signal);
    return this.exited;
  }

  diagnostics(): string {
    return `stdout: ${this.lines.slice(-5).join(' | ')}; stderr: ${this.stderr}`;
  }
}
