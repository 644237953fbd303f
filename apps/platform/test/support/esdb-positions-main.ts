/**
 * `npm start` (apps/platform/src/main.ts) with the event store seen through EventStoreDB-shaped
 * positions (`withEsdbShapedPositions` of @reelstream/testing): every service of the platform
 * then orders, stores and resumes from positions whose string order is wrong and which are not
 * decimals. Test-only; the e2e suite runs it as one more topology.
 */
import { runService } from '@reelstream/platform-runtime';
import { esdbShapedCheckpoints, withEsdbShapedPositions } from '@reelstream/testing/esdb-positions';
import { startPlatform } from '../../src/start-platform.js';

await runService('platform', (runtime) =>
  startPlatform({
    ...runtime,
    async openBackends(backends) {
      const opened = await runtime.openBackends(backends);
      return {
        ...opened,
        store: withEsdbShapedPositions(opened.store),
        checkpoints: esdbShapedCheckpoints(opened.checkpoints),
        untraced: { ...opened.untraced, store: withEsdbShapedPositions(opened.untraced.store) },
      };
    },
  }),
);
