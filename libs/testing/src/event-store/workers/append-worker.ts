/**
 * Child process for the EventStore contract: opens the store named by EVENT_STORE_URL and appends
 * on request. stdin: one JSON command per line `{ id, streamId, expectedRevision, eventId, startAt }`
 * (`startAt`: epoch ms to wait for, so two workers fire at the same moment);
 * stdout: `{ ready: true }` once open, then `{ id, ok, nextExpectedRevision? , conflict?, actual?, error? }`.
 * Exits when stdin closes.
 */
import { createInterface } from 'node:readline';
import { openTestEventStore as openEventStore } from '../esdb-positions.js';
import { isWrongExpectedRevision, type ExpectedRevision } from '@reelstream/platform-ports';

interface AppendCommand {
  id: number;
  streamId: string;
  expectedRevision: ExpectedRevision;
  eventId: string;
  startAt?: number;
}

const url = process.env['EVENT_STORE_URL'];
if (!url) throw new Error('EVENT_STORE_URL is required');
const { store } = await openEventStore(url);
const say = (message: unknown): void => void process.stdout.write(`${JSON.stringify(message)}\n`);

const pending = new Set<Promise<void>>();
const waitUntil = (at: number | undefined) =>
  new Promise((resolve) => setTimeout(resolve, Math.max(0, (at ?? 0) - Date.now())));

async function run(command: AppendCommand): Promise<void> {
  await waitUntil(command.startAt);
  try {
    const event = { eventId: command.eventId, type: 'RaceWon', data: { by: process.pid } };
    const result = await store.append(command.streamId, [event], { expectedRevision: command.expectedRevision });
    say({ id: command.id, ok: true, nextExpectedRevision: result.nextExpectedRevision });
  } catch (error) {
    const conflict = isWrongExpectedRevision(error);
    say({ id: command.id, ok: false, conflict, actual: conflict ? error.actual : undefined, error: String(error) });
  }
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const work = run(JSON.parse(line) as AppendCommand).finally(() => pending.delete(work));
  pending.add(work);
});
lines.on('close', () => {
  void Promise.all(pending)
    .then(() => store.close())
    .then(() => process.exit(0));
});
say({ ready: true, pid: process.pid });
