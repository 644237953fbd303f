/**
 * `npm start` listens on loopback only, unless a variable names another interface: the process's
 * own listening sockets, read from /proc (every socket it holds, so a server nobody announced is
 * found too), with the Prometheus exporter on so that its socket is among them.
 */
import { readdirSync, readFileSync, readlinkSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { freePort } from '@reelstream/testing';
import { oneProcess, type RunningPlatform } from './support/topologies.js';

// Two starts of the platform: on busy cores each can take a minute.
jest.setTimeout(240_000);

interface ListeningSocket {
  address: string;
  port: number;
}

/** `0100007F` (little-endian IPv4) as `127.0.0.1`; IPv6 (four little-endian words) as eight groups, or `::` when all zero. */
function addressOf(hex: string): string {
  const bytes = (word: string) => (word.match(/../g) ?? []).map((pair) => parseInt(pair, 16)).reverse();
  if (hex.length === 8) return bytes(hex).join('.');
  const octets = (hex.match(/.{8}/g) ?? []).flatMap(bytes);
  if (octets.every((octet) => octet === 0)) return '::';
  return Array.from({ length: 8 }, (_, i) =>
    (((octets[2 * i] ?? 0) << 8) | (octets[2 * i + 1] ?? 0)).toString(16),
  ).join(':');
}

/** The TCP sockets `pid` listens on: its file descriptors' socket inodes looked up in the kernel's tables. */
function listeningSockets(pid: number): ListeningSocket[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (target?.[1]) inodes.add(target[1]);
    } catch {
      // closed meanwhile
    }
  }
  const sockets: ListeningSocket[] = [];
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readFileSync(`/proc/${pid}/net/${table}`, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [local, state, inode] = [fields[1], fields[3], fields[9]];
      if (!local || state !== '0A' || !inode || !inodes.has(inode)) continue;
      const [hex = '', port = '0'] = local.split(':');
      sockets.push({ address: addressOf(hex), port: parseInt(port, 16) });
    }
  }
  return sockets;
}

const EVERY_INTERFACE = ['0.0.0.0', '::'];

describe('the sockets npm start listens on', () => {
  let dataDir: string | undefined;
  let platform: RunningPlatform | undefined;

  afterEach(async () => {
    await platform?.stop('SIGKILL');
    platform = undefined;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const start = async (env: Record<string, string>) => {
    dataDir = mkdtempSync(join(tmpdir(), 'reelstream-sockets-'));
    const metricsPort = await freePort();
    platform = await oneProcess.start(dataDir, {
      env: {
        OTEL_SDK_DISABLED: 'false',
        OTEL_TRACES_EXPORTER: 'none',
        OTEL_METRICS_EXPORTER: 'prometheus',
        OTEL_EXPORTER_PROMETHEUS_PORT: String(metricsPort),
        ...env,
      },
    });
    const pid = platform.pids()['platform'];
    if (pid === undefined) throw new Error('the platform has no pid');
    return { sockets: listeningSockets(pid), metricsPort };
  };

  it('are every one on loopback by default, each on a port it was given or announces', async () => {
    const { sockets, metricsPort } = await start({});
    const running = platform as RunningPlatform;
    const announced = [running.gatewayUrl, running.gameUrl, running.sandboxUrl].map((url) => Number(new URL(url).port));

    // gateway, game-server, sandbox, the ledger's and the dispatcher's health servers, the metrics exporter
    expect(sockets.length).toBeGreaterThanOrEqual(6);
    expect(sockets.filter((socket) => EVERY_INTERFACE.includes(socket.address))).toEqual([]);
    expect(sockets.every((socket) => socket.address === '127.0.0.1')).toBe(true);
    expect(sockets.map((socket) => socket.port)).toEqual(expect.arrayContaining([...announced, metricsPort]));
  });

  it('listen on another interface only where a variable says so', async () => {
    const { sockets, metricsPort } = await start({ GATEWAY_HOST: '0.0.0.0', OTEL_EXPORTER_PROMETHEUS_HOST: '::' });
    const gatewayPort = Number(new URL((platform as RunningPlatform).gatewayUrl).port);

    expect(sockets.filter((socket) => EVERY_INTERFACE.includes(socket.address))).toEqual(
      expect.arrayContaining([
        { address: '0.0.0.0', port: gatewayPort },
        { address: '::', port: metricsPort },
      ]),
    );
    expect(sockets.filter((socket) => EVERY_INTERFACE.includes(socket.address))).toHaveLength(2);
  });
});
