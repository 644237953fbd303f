import { refuse } from '../refused.js';

/**
 * One spin at a time per session: a double click, or a second tab, must not start a second round
 * while the first waits for the wallet. The second request is refused (SPIN_IN_PROGRESS), never
 * queued, so a player is never charged twice for one click.
 */
export class SpinLocks {
  private readonly held = new Set<string>();

  async withLock<T>(token: string, work: () => Promise<T>): Promise<T> {
    if (this.held.has(token)) refuse('SPIN_IN_PROGRESS');
    this.held.add(token);
    try {
      return await work();
    } finally {
      this.held.delete(token);
    }
  }
}
