/**
 * Drop and rebuild: the read model is a pure function of the log, so it can be thrown away and
 * projected again from the first event (after a schema change, or to check it, as the tests do).
 */
import { PLAYER_BONUS_FILTER, projectionChange } from '@reelstream/bonus-application';
import type { EventStore, Position } from '@reelstream/platform-ports';
import type { SqliteBonusReadModel } from './sqlite-bonus-read-model.js';

const PAGE = 1_000;

/** Empties `readModel` and projects every bonus event of `store` into it; returns the events applied. */
export async function rebuildBonusReadModel(store: EventStore, readModel: SqliteBonusReadModel): Promise<number> {
  readModel.reset();
  let after: Position | undefined;
  let applied = 0;
  for (;;) {
    const page = await store.readAll({
      maxCount: PAGE,
      filter: PLAYER_BONUS_FILTER,
      ...(after === undefined ? {} : { fromPosition: after }),
    });
    // One transaction per page: rows and checkpoint together, as the live projection writes them.
    await readModel.apply(page.map(projectionChange));
    applied += page.length;
    const last = page[page.length - 1];
    if (!last || page.length < PAGE) return applied;
    after = last.position;
  }
}
