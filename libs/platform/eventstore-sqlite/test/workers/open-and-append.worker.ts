/**
 * Opens the store at DB_PATH at the wall-clock moment START_AT (so several processes open a new
 * file at once), appends COUNT events to STREAM one by one, prints `{"done":true}` and exits.
 */
import { SqliteEventStore } from '../../src/index.js';

const path = process.env['DB_PATH'];
const stream = process.env['STREAM'];
if (!path || !stream) throw new Error('DB_PATH and STREAM are required');
const count = Number(process.env['COUNT'] ?? '1');
await new Promise((resolve) => setTimeout(resolve, Math.max(0, Number(process.env['START_AT'] ?? '0') - Date.now())));

const store = SqliteEventStore.open(path);
for (let i = 0; i < count; i++) {
  await store.append(stream, [{ type: 'Written', data: { i, pid: process.pid } }], { expectedRevision: 'any' });
}
await store.close();
process.stdout.write(`${JSON.stringify({ done: true })}\n`);
