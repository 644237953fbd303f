/**
 * `npm run drill:restore`: the PostgreSQL event store's restore drill on this machine (PG_URL, or the
 * server at 127.0.0.1:5432). Prints the figures of docs/runbooks/backup-and-restore.md and exits 1
 * when a check fails. `--seconds=<n>` sets the traffic before and after the backup (default 20 each).
 */
import { postgresForTests, postgresNotice } from '@reelstream/testing/postgres';
import { runRestoreDrill } from '../apps/platform/test/support/restore-drill.js';

const seconds = Number(
  /^--seconds=(\d+)$/.exec(process.argv.find((arg) => arg.startsWith('--seconds=')) ?? '')?.[1] ?? 20,
);
const postgres = await postgresForTests();
if (!postgres) {
  process.stderr.write(postgresNotice('the restore drill'));
  process.exit(1);
}
const started = performance.now();
const figures = await runRestoreDrill(postgres, {
  beforeMs: seconds * 1_000,
  afterMs: seconds * 1_000,
  restoredMs: 5_000,
  concurrency: 4,
  say: (line) => console.log(`… ${line}`),
});
const ms = (value: number) => `${(value / 1_000).toFixed(2)} s`;
const { traffic, backup, loss } = figures;
const spins = (counts: typeof traffic.total) =>
  `${counts.registrations} registrations, ${counts.freeSpins} free and ${counts.paidSpins} paid spins`;
console.log(
  `\nrestore drill, PostgreSQL at ${postgres.server}, node ${process.version}, ${ms(performance.now() - started)} in all`,
);
console.log(`traffic before the backup        ${spins(traffic.beforeBackup)}`);
console.log(`traffic before the stop          ${spins(traffic.total)}`);
console.log(
  `backup (pg_dump -Fc, online)     ${ms(backup.ms)}, ${(backup.bytes / 1024).toFixed(0)} KiB, ${backup.eventsInIt} events`,
);
console.log(`restore (pg_restore, new db)     ${ms(figures.restoreMs)}`);
console.log(`platform ready on the restore    ${ms(figures.startMs)} after its start`);
console.log(`the same on the empty store      ${ms(figures.firstStartMs)} (no restore)`);
const { openRounds } = figures;
console.log(
  `rounds open in the restored log  ${openRounds.open}: ${openRounds.settled} settled, ${openRounds.canceled} canceled by the restarted platform`,
);
console.log(`open rounds resolved             ${ms(figures.roundsResolvedMs)} after its start`);
console.log(
  `RTO on this machine              ${ms(figures.restoreMs + figures.startMs)} (restore + start), from a dump already on disk`,
);
console.log(
  `RPO: events lost                 ${figures.eventsLost} of ${figures.eventsKept} (${Object.entries(figures.lostByType)
    .map(([type, count]) => `${count} ${type}`)
    .join(', ')})`,
);
console.log(
  `wallet money the restored log does not record: ${loss.transactions} transactions, net ${loss.netMinor} minor units, all named by lost events: ${loss.unexplained.length === 0 ? 'yes' : 'NO'}`,
);
console.log(`callbacks the wallet answered from its records after the restart: ${figures.walletReplays}`);
console.log(`traffic on the restored store    ${spins(traffic.afterRestore)}`);
if (figures.problems.length > 0) {
  console.log(`\nFAILED, ${figures.problems.length} problems:\n${figures.problems.join('\n')}`);
  process.exit(1);
}
console.log('\nreconciliation: every check held');
