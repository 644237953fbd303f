/**
 * pino writes stdout asynchronously. Through a pipe, as a supervisor or `npm start | …` reads
 * it: every line before `ready` comes before the banner, and the lines of the drain come out
 * before the process exits. The reader here stops reading for longer than a stop waits for
 * stdout (as a busy CI runner or a stalled log shipper does): the pipe fills, writes are
 * retried, and still no line is lost or out of order.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';

const dir = mkdtempSync(join(tmpdir(), 'log-flush-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LINES = 5000;
/** Longer than the 5 s a stop waits for stdout before it exits and writes the rest synchronously. */
const READER_STALL_MS = 6_000;

function runChatty(): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, '../test/support/chatty-service.ts')],
    {
      env: {
        PATH: process.env['PATH'],
        OTEL_SDK_DISABLED: 'true',
        LOG_LEVEL: 'info',
        DATA_DIR: dir,
        CHATTY_LINES: String(LINES),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stdout.pause();
  setTimeout(() => child.stdout.resume(), READER_STALL_MS);
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout })));
}

describe('log lines through a pipe', () => {
  it('come out whole and in order: the chatter, ready, the banner, then the drain up to "stopped"', async () => {
    const { code, stdout } = await runChatty();
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    const bannerAt = lines.indexOf('BANNER');
    expect(bannerAt).toBeGreaterThan(0);
    const before = lines.slice(0, bannerAt).map((line) => JSON.parse(line) as Record<string, unknown>);
    const after = lines.slice(bannerAt + 1).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(before.filter((entry) => entry['msg'] === 'chatter').map((entry) => entry['i'])).toEqual(
      Array.from({ length: LINES }, (_, i) => i),
    );
    expect(before.at(-1)).toMatchObject({ msg: 'ready', service: 'gateway', lines: LINES });
    expect(after.map((entry) => entry['msg'])).toEqual(['stopping', 'stopped']);
    expect(after.at(-1)).toMatchObject({ clean: true });
  }, 60_000);
});
