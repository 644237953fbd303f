/**
 * The real platform as child processes on free ports, in three topologies (four with Kafka): all services in one
 * process (`npm start`); gateway, bonus-ledger, wallet-dispatcher and game-server as four
 * processes from their built entries on one SQLite file; and `npm start` once more with every
 * event-store position EventStoreDB-shaped (see @reelstream/testing's esdb-positions); with
 * KAFKA_BROKERS, `npm start` a third time with BUS_URL=kafka://… on that broker, and with a PostgreSQL
 * server as well (PG_URL, or the machine's at 127.0.0.1:5432), a fourth on the production engines:
 * BUS_URL=kafka://… and EVENT_STORE_URL=postgres://… (a schema of its own). The same flows run
 * against each (flows.ts); the one-process run also pastes the commands its banner printed.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import Database from 'better-sqlite3';
import { DEMO_OPERATOR } from '@reelstream/platform-config';
import { READ_MODEL_CHECKPOINT } from '@reelstream/bonus-adapters';
import { readModelPath } from '@reelstream/bonus-service';
import { encodeEsdbShapedPosition, eventually, postgresForTests, postgresNotice } from '@reelstream/testing';
import { platformFlows } from './flows.js';
import { AppProcess } from './support/app-process.js';
import { call, PlayerClient } from './support/clients.js';
import {
  fourProcesses,
  oneProcess,
  oneProcessEsdbPositions,
  oneProcessOnKafka,
  oneProcessOnKafkaAndPostgres,
  PLATFORM_INSTANCE_ID,
  type RunningPlatform,
} from './support/topologies.js';

// The project's testTimeout is a global option that jest ignores in a multi-project run (npm test):
// the crash tests restart real processes and need more than the root's 30 s on busy cores.
jest.setTimeout(90_000);

const run = promisify(execFile);

/** The shell commands of a banner: each starts with `curl ` and goes on while a line ends in a backslash. */
function printedCommands(banner: string): string[] {
  const commands: string[] = [];
  let current: string[] | undefined;
  for (const line of banner.split('\n')) {
    if (!current && line.startsWith('curl ')) current = [];
    if (!current) continue;
    current.push(line);
    if (!line.endsWith('\\')) {
      commands.push(current.join('\n'));
      current = undefined;
    }
  }
  return commands;
}

const paste = async (command: string, env: Record<string, string> = {}) =>
  JSON.parse((await run('sh', ['-c', command], { env: { ...process.env, ...env } })).stdout) as {
    success?: boolean;
    data?: unknown;
    transactions?: unknown[];
    error?: unknown;
  };

// With KAFKA_BROKERS (npm test starts a broker when Java is there), `npm start` runs once more with BUS_URL=kafka://….
const kafkaBrokers = process.env['KAFKA_BROKERS'];
if (!kafkaBrokers)
  process.stdout.write('[platform e2e] NOT run with BUS_URL=kafka://…: KAFKA_BROKERS is not set (no Kafka here).\n');
// With Kafka and a PostgreSQL server, once more on both: the engines of a production cluster.
const postgres = await postgresForTests();
if (!postgres) process.stdout.write(postgresNotice('the platform e2e suite on Kafka and PostgreSQL'));
const productionSchema = kafkaBrokers && postgres ? await postgres.schema('platform_e2e') : undefined;
afterAll(async () => {
  await productionSchema?.drop();
});
const topologies = [
  oneProcess,
  fourProcesses,
  oneProcessEsdbPositions,
  ...(kafkaBrokers ? [oneProcessOnKafka(kafkaBrokers)] : []),
  ...(kafkaBrokers && productionSchema ? [oneProcessOnKafkaAndPostgres(kafkaBrokers, productionSchema.url)] : []),
];

describe.each(topologies)('the platform as $name', (topology) => {
  let dataDir: string;
  let platform: RunningPlatform | undefined;
  const current = () => {
    if (!platform) throw new Error(`${topology.name} did not start`);
    return platform;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'reelstream-e2e-'));
    platform = await topology.start(dataDir);
  }, 120_000);

  afterAll(async () => {
    if (platform) await platform.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  if (topology === oneProcess) {
    it('prints the URLs, the demo token and commands that work when pasted as printed', async () => {
      const { banner, gatewayUrl, gameUrl } = current();
      expect(banner).toContain(`Operator API      ${gatewayUrl}   docs: ${gatewayUrl}/docs`);
      expect(banner).toContain(`Game launch host  ${gameUrl}`);
      expect(banner).toContain(`API token ${DEMO_OPERATOR.apiToken}`);
      const commands = printedCommands(banner ?? '');
      expect(commands).toHaveLength(4);
      const [register, launch, follow, transactions] = commands as [string, string, string, string];

      const registered = await paste(register);
      expect(registered).toMatchObject({ success: true, data: { issueId: expect.any(Number) } });
      const issueId = (registered.data as { issueId: number }).issueId;
      expect(await paste(register)).toEqual(registered); // pasted twice: the same bonus (D17)

      const launched = await paste(launch);
      expect(launched.success).toBe(true);
      const launchUrl = new URL(String(launched.data));
      expect(launchUrl.origin).toBe(new URL(gameUrl).origin);
      const page = await call('GET', launchUrl.href);
      expect([page.status, String(page.body)]).toEqual([200, expect.stringContaining('<html')]);
      const session = await new PlayerClient(() => gameUrl, launchUrl.searchParams.get('token') ?? '').session();
      expect(session.body.data.activeBonus).toMatchObject({ issueId, status: 'active', spinsLeft: 10 });

      expect(
        ((await paste(follow)).data as { items: { issueId: number }[] }).items.map((item) => item.issueId),
      ).toEqual([issueId]);
      expect((await paste(transactions)).transactions).toEqual([]);
      expect((await call('GET', `${gatewayUrl}/docs`)).status).toBe(200);
    });
  }

  platformFlows(current);

  if (topology === oneProcessEsdbPositions) {
    it('kept the bonus read model’s checkpoint in EventStoreDB-shaped positions, up to the last bonus event', async () => {
      const { dataDir } = current();
      const eventsFile = new Database(join(dataDir, 'reelstream.db'), { readonly: true });
      const lastBonusEvent = eventsFile
        .prepare("SELECT max(position) FROM es_events WHERE stream_id LIKE 'playerBonus-%'")
        .pluck()
        .get() as number;
      eventsFile.close();
      // Enough events that the commit position gained a digit at least once, where string order goes wrong.
      expect(lastBonusEvent).toBeGreaterThan(92);
      await eventually(() => {
        const readModel = new Database(readModelPath(dataDir, PLATFORM_INSTANCE_ID), { readonly: true });
        try {
          expect(
            readModel.prepare('SELECT position FROM es_checkpoints WHERE name = ?').pluck().get(READ_MODEL_CHECKPOINT),
          ).toBe(encodeEsdbShapedPosition(String(lastBonusEvent)));
        } finally {
          readModel.close();
        }
      }, 10_000);
    });
  }

  it('drains and exits 0 on Ctrl-C / SIGTERM', async () => {
    const codes = await current().stop(topology === fourProcesses ? 'SIGTERM' : 'SIGINT');
    platform = undefined;
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.every((code) => code === 0)).toBe(true);
  });
});

describe('npm start with a bad operator configuration', () => {
  it('stops before starting anything, names the bad key on stderr and exits 2', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reelstream-e2e-bad-'));
    try {
      const operators = [
        {
          id: 'acme',
          name: 'Acme',
          apiToken: 'acme-token-0123456789',
          callbackUrl: 'http://127.0.0.1:9/cb',
          signingSecret: 'acme-secret-0123456789',
          currency: 'EUR',
          timeZone: 'Mars/Olympus',
        },
      ];
      const process = new AppProcess('platform', join('apps', 'platform', 'src', 'main.ts'), {
        DATA_DIR: dataDir,
        GATEWAY_PORT: '0',
        GAME_PORT: '0',
        SANDBOX_PORT: '0',
        OTEL_SDK_DISABLED: 'true',
        OPERATORS_JSON: JSON.stringify(operators),
      });
      expect((await process.exited).code).toBe(2);
      expect(process.stderr).toMatch(
        /^platform did not start: invalid operator configuration in OPERATORS_JSON:\n {2}- operators\[0\]\.timeZone: /,
      );
      expect(process.lines.filter((line) => line.includes('listening') || line.includes('"msg":"ready"'))).toEqual([]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm start with a configured operator that has allowed return origins', () => {
  it('prints register and launch commands that work as printed (the launch returns to an allowed origin)', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'reelstream-e2e-origins-'));
    const apiToken = 'origins-api-token-0123456789abcdef';
    const operators = [
      {
        id: 'acme',
        name: 'Acme',
        apiToken,
        callbackUrl: 'http://127.0.0.1:9/cb',
        signingSecret: 'acme-secret-0123456789',
        currency: 'EUR',
        allowedReturnOrigins: ['https://casino.example'],
      },
    ];
    const env = {
      DATA_DIR: dataDir,
      GATEWAY_PORT: '0',
      GAME_PORT: '0',
      SANDBOX_PORT: '0',
      OTEL_SDK_DISABLED: 'true',
      OPERATORS_FILE: '',
      OPERATORS_JSON: JSON.stringify(operators),
    };
    const process = new AppProcess('platform', join('apps', 'platform', 'src', 'main.ts'), env);
    try {
      await process.ready();
      await process.waitForLine((line) => line.startsWith('Ctrl-C stops the platform'));
      const readyAt = process.lines.findIndex((line) => line.includes('"msg":"ready"'));
      const [register, launch] = printedCommands(process.lines.slice(readyAt + 1).join('\n')) as [string, string];
      expect(launch).toContain('"returnUrl":"https://casino.example/"');
      expect(await paste(register, { API_TOKEN: apiToken })).toMatchObject({
        success: true,
        data: { issueId: expect.any(Number) },
      });
      const launched = await paste(launch, { API_TOKEN: apiToken });
      expect(launched).toMatchObject({ success: true, data: expect.stringContaining('/launch?token=') });
    } finally {
      await process.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
