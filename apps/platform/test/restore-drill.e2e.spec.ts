/**
 * The restore drill of docs/runbooks/backup-and-restore.md, short: `npm start` on PostgreSQL with the
 * embedded bus, players playing, an online pg_dump of the event store, more play, a stop, the dump
 * restored into a fresh database and `npm start` again on it (support/restore-drill.ts). Asserts the
 * checks, not the timings (`npm run drill:restore` prints those): the restored log is exactly the log
 * up to the backup, the wallet's money agrees with it but for what the lost events named, the rounds
 * it left open end, and the players after the restore reconcile to the cent.
 */
import { describe, expect, it, jest } from '@jest/globals';
import { postgresForTests, postgresNotice } from '@reelstream/testing';
import { runRestoreDrill } from './support/restore-drill.js';

// Two platform starts, a round resolution after the restart and three stretches of traffic on busy cores.
jest.setTimeout(150_000);

const postgres = await postgresForTests();
if (postgres) {
  describe('restore drill: the PostgreSQL event store backed up online and restored', () => {
    it('restores the log up to the backup, loses only what came after it, and the money reconciles', async () => {
      const figures = await runRestoreDrill(postgres, {
        beforeMs: 3_000,
        afterMs: 3_000,
        restoredMs: 2_000,
        concurrency: 2,
        say: () => undefined,
      });
      expect(figures.problems).toEqual([]);
      // Play went on after the backup, so the restore lost events, and money the wallet moved for them.
      expect(figures.traffic.total.paidSpins).toBeGreaterThan(figures.traffic.beforeBackup.paidSpins);
      expect(figures.eventsLost).toBeGreaterThan(0);
      expect(figures.backup.eventsInIt + figures.eventsLost).toBe(figures.eventsKept);
      expect(figures.loss.transactions).toBeGreaterThan(0);
      expect(figures.loss.unexplained).toEqual([]);
      expect(figures.traffic.afterRestore.registrations).toBeGreaterThan(0);
    });
  });
} else {
  process.stdout.write(postgresNotice('the restore drill'));
}
