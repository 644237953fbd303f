/**
 * The EventStore contract against a real EventStoreDB, when `EVENTSTORE_URL` names one
 * (`npm run test:infra` starts it from docker/compose.yml). The tests below it need no server and
 * always run.
 */
import { describe, expect, it } from '@jest/globals';
import { describeEventStoreClusterContract, describeEventStoreContract, freePort } from '@reelstream/testing';
import { InvalidConnectionStringError, openEsdbEventStore } from '../src/index.js';

const url = process.env['EVENTSTORE_URL'];

if (url) {
  describeEventStoreContract(
    async () => ({
      adapter: 'esdb',
      url,
      open: () => openEsdbEventStore(url),
      // The server belongs to docker compose and outlives the suite; the cases use fresh stream names.
      dispose: async () => undefined,
    }),
    'esdb',
  );
  describeEventStoreClusterContract(
    async () => ({ adapter: 'esdb', url, open: () => openEsdbEventStore(url), dispose: async () => undefined }),
    'esdb',
  );
} else {
  process.stdout.write(
    '[contract] EventStore contract suite NOT run against EventStoreDB: EVENTSTORE_URL is not set (it ran against the embedded SQLite adapter).\n' +
      '[contract] EventStore CLUSTER contract (filtered resume past 10k foreign events, backwards readAll over 50k foreign events) ' +
      'NOT run: EVENTSTORE_URL is not set. No EventStoreDB ran here.\n',
  );
}

describe('openEsdbEventStore', () => {
  it('refuses a connection string that is not esdb:// before connecting', async () => {
    await expect(openEsdbEventStore('sqlite:./data/reelstream.db')).rejects.toThrow(InvalidConnectionStringError);
  });

  it('fails at start-up, naming the address, when nothing listens there', async () => {
    const port = await freePort();
    await expect(openEsdbEventStore(`esdb://127.0.0.1:${port}?tls=false`)).rejects.toThrow(
      `cannot reach EventStoreDB at esdb://127.0.0.1:${port}?tls=false`,
    );
  });
});
