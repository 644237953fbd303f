/**
 * A service that writes many log lines while starting, prints a banner once ready and then
 * stops itself with SIGTERM: what log-flush.int.spec.ts reads through a pipe, to see that no
 * line is lost or printed out of order although pino writes stdout asynchronously.
 */
import { runService } from '../../src/index.js';

const LINES = Number(process.env['CHATTY_LINES'] ?? '5000');

await runService('gateway', async (runtime) => {
  // What a server would do: keep the process alive until it is stopped.
  const alive = setInterval(() => undefined, 60_000);
  runtime.onStop('timer', async () => clearInterval(alive));
  const component = runtime.loggerFor('chatty');
  for (let i = 0; i < LINES; i++) component.info('chatter', { i, padding: 'x'.repeat(200) });
  runtime.onReady((print) => {
    print('BANNER\n');
    process.kill(process.pid, 'SIGTERM');
  });
  return { lines: LINES };
});
