import type pg from 'pg';
import { FencedOutError, type Lease, type LeasesAndFencedCheckpoints, type Position } from '@reelstream/platform-ports';
import { readCheckpoint, writeCheckpoint } from './checkpoints.js';
import { inTransaction } from './connection.js';
import { reaching } from './errors.js';
import type { Tables } from './schema.js';

export interface PostgresLeaseStoreOptions {
  /** Epoch ms. Default `Date.now`: each replica judges expiry by its own clock (docs/adr/0005-leases-and-fencing.md). */
  now?: () => number;
}

interface LeaseRow {
  token: string;
  expires_at: string;
}

/**
 * The `LeaseStore` and `FencedCheckpointStore` ports on `es_leases` and `es_checkpoints` of the
 * event store's database. A lease change is one statement (the row lock of an upsert is the
 * compare-and-set); a fenced checkpoint write locks the lease row, checks the token and moves the
 * checkpoint in one transaction. A row is never deleted: its token is the newest granted for the
 * name, and a release only sets `expires_at` to 0.
 */
export class PostgresLeaseStore implements LeasesAndFencedCheckpoints {
  private readonly now: () => number;

  constructor(
    private readonly pool: pg.Pool,
    private readonly tables: Tables,
    /** The server, for the error of a lost connection. */
    private readonly address: string,
    options: PostgresLeaseStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  acquire(name: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    return reaching(this.address, () => this.grant(name, owner, ttlMs));
  }

  private async grant(name: string, owner: string, ttlMs: number): Promise<Lease | undefined> {
    const now = this.now();
    const { rows } = await this.pool.query<LeaseRow>(
      `INSERT INTO ${this.tables.leases} (name, owner, token, expires_at) VALUES ($1, $2, 1, $3)
       ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, token = es_leases.token + 1, expires_at = excluded.expires_at
       WHERE es_leases.owner = excluded.owner OR es_leases.expires_at <= $4
       RETURNING token::text AS token, expires_at::text AS expires_at`,
      [name, owner, now + ttlMs, now],
    );
    const row = rows[0];
    return row ? { name, owner, token: Number(row.token), expiresAt: Number(row.expires_at) } : undefined;
  }

  async renew(lease: Lease, ttlMs: number): Promise<Lease | undefined> {
    const expiresAt = this.now() + ttlMs;
    // Expired but not taken (and not released) is still this owner's: nobody was granted a newer token.
    const { rowCount } = await reaching(this.address, () =>
      this.pool.query(
        `UPDATE ${this.tables.leases} SET expires_at = $4
       WHERE name = $1 AND owner = $2 AND token = $3 AND expires_at <> 0`,
        [lease.name, lease.owner, lease.token, expiresAt],
      ),
    );
    return (rowCount ?? 0) > 0 ? { ...lease, expiresAt } : undefined;
  }

  async release(lease: Lease): Promise<void> {
    await reaching(this.address, () =>
      this.pool.query(`UPDATE ${this.tables.leases} SET expires_at = 0 WHERE name = $1 AND token = $2`, [
        lease.name,
        lease.token,
      ]),
    );
  }

  load(name: string): Promise<Position | undefined> {
    return reaching(this.address, () => readCheckpoint(this.pool, this.tables, name));
  }

  /** The lease row stays locked from the token check to the commit: no grant can slip in between. */
  async store(name: string, position: Position, token: number): Promise<void> {
    await reaching(this.address, () => this.fencedWrite(name, position, token));
  }

  private async fencedWrite(name: string, position: Position, token: number): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ token: string }>(
        `SELECT token::text AS token FROM ${this.tables.leases} WHERE name = $1 FOR SHARE`,
        [name],
      );
      const newest = rows[0] === undefined ? undefined : Number(rows[0].token);
      if (newest === undefined || newest > token) throw new FencedOutError(name, token, newest);
      await writeCheckpoint(client, this.tables, name, position);
    });
  }
}
