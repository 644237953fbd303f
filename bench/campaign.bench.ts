/**
 * `npm run bench:campaign`: a campaign of 10,000 players (docs/adr/0010-campaigns.md) through the
 * whole platform on the embedded back ends (SQLite event store and bus, synchronous=FULL, one temp
 * file, as `npm start` runs them): `POST /v1/bonus-call/campaigns` to the gateway, the REAL
 * bonus-ledger's campaign worker registering every player as a single registration, the campaign
 * polled with `GET /v1/bonus-call/campaigns/{campaignId}` every 100 ms until it is completed. Prints
 * the time from the POST to the completion seen by GET, and checks that every player has exactly one
 * registration. `PLAYERS=2000 npm run bench:campaign` runs a shorter one.
 */
import { campaignStream, StreamCategories } from '@reelstream/contracts';
import { BENCH_TOKEN, startBenchPlatform } from './support/platform.js';

const PLAYERS = Number(process.env['PLAYERS'] ?? 10_000);
const POLL_MS = 100;

const {
  gateway,
  store: gatewayStore,
  stop,
} = await startBenchPlatform('campaign-bench', { perSecond: 50, burst: 100 });

const headers = { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' };
const expireAt = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
// playerIds of 50 characters: the largest request a campaign can be.
const players = Array.from({ length: PLAYERS }, (_, index) => `p${String(index).padStart(49, '0')}`);
const body = JSON.stringify({
  campaignId: 'bench',
  players,
  providerId: 1,
  gameId: [101, 102],
  bonusType: 1,
  callAmount: 50,
  expireAt,
  metaData: { spinAmount: 10, baseBetAmount: 0.2 },
});

try {
  const started = performance.now();
  const posted = await fetch(`${gateway.url}/v1/bonus-call/campaigns`, { method: 'POST', headers, body });
  const answeredMs = performance.now() - started;
  if (posted.status !== 202) throw new Error(`POST answered ${posted.status}: ${await posted.text()}`);
  let progress: { state: string; registered: number; refused: number; pending: number };
  let lastReport = performance.now();
  for (;;) {
    const read = await fetch(`${gateway.url}/v1/bonus-call/campaigns/bench`, { headers });
    progress = ((await read.json()) as { data: typeof progress }).data;
    if (progress.state === 'completed') break;
    if (performance.now() - lastReport > 5_000) {
      lastReport = performance.now();
      console.log(`  … ${((performance.now() - started) / 1000).toFixed(1)} s: ${progress.registered} registered`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const totalMs = performance.now() - started;

  // Exactly one registration per player.
  const registered = new Map<string, number>();
  let position: string | undefined;
  for (;;) {
    const page = await gatewayStore.readAll({
      ...(position === undefined ? {} : { fromPosition: position }),
      maxCount: 5_000,
      filter: { streamPrefixes: [`${StreamCategories.playerBonus}-`] },
    });
    for (const event of page)
      if (event.type === 'BonusCallRegistered')
        registered.set(event.streamId, (registered.get(event.streamId) ?? 0) + 1);
    if (page.length < 5_000) break;
    position = page[page.length - 1]?.position;
  }
  const doubles = [...registered.values()].filter((count) => count > 1).length;
  const campaignEvents = (await gatewayStore.readStream(campaignStream('bench', 'bench'))).length;

  console.log(
    `campaign bench: ${PLAYERS} players (playerIds of 50 characters, body ${(body.length / 1024).toFixed(0)} kB), gateway + bonus-ledger, embedded SQLite (FULL), node ${process.version}`,
  );
  console.log(`  POST answered 202 in      ${answeredMs.toFixed(0)} ms`);
  console.log(
    `  POST → completed (GET)    ${(totalMs / 1000).toFixed(1)} s   (${((PLAYERS * 1000) / totalMs).toFixed(0)} registrations/s)`,
  );
  console.log(
    `  registered ${progress.registered}, refused ${progress.refused}, pending ${progress.pending}; players with a bonus call ${registered.size}, registered twice ${doubles}; campaign stream events ${campaignEvents}`,
  );
  if (progress.registered !== PLAYERS || registered.size !== PLAYERS || doubles !== 0)
    throw new Error('the campaign did not register every player exactly once');
} finally {
  await stop();
}
