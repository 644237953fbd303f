import { describe, expect, it } from '@jest/globals';
import { ConfigError, parseEnv } from '@reelstream/platform-config';
import {
  DEFAULT_WORKER_IDS,
  defaultInstanceId,
  processIdentityEnv,
  processIdentityOf,
  SERVICE_NAMES,
} from './process-identity.js';

const identity = (service: Parameters<typeof processIdentityOf>[0], env: Record<string, string>) =>
  processIdentityOf(service, parseEnv(processIdentityEnv, env), 'host-1');

describe('the worker id', () => {
  it('defaults to a different id per service, so the apps of one machine never draw the same ids', () => {
    const ids = SERVICE_NAMES.map((service) => identity(service, {}).workerId);
    expect(new Set(ids).size).toBe(SERVICE_NAMES.length);
    expect(identity('platform', {})).toMatchObject({ workerId: 0, workerIdSource: 'service default' });
    expect(DEFAULT_WORKER_IDS).toEqual({
      platform: 0,
      gateway: 1,
      'bonus-ledger': 2,
      'game-server': 3,
      'wallet-dispatcher': 4,
      'operator-sandbox': 5,
    });
  });

  it('is WORKER_ID when set, whatever else is', () => {
    expect(identity('gateway', { WORKER_ID: '17', WORKER_ID_BASE: '32', POD_INDEX: '2' })).toMatchObject({
      workerId: 17,
      workerIdSource: 'WORKER_ID',
    });
  });

  it('is WORKER_ID_BASE + POD_INDEX for a replica of a StatefulSet', () => {
    expect(identity('game-server', { WORKER_ID_BASE: '280', POD_INDEX: '203' })).toMatchObject({
      workerId: 483,
      workerIdSource: 'WORKER_ID_BASE + POD_INDEX',
    });
  });

  it('refuses a base without the pod index, a range beyond 1023 and ids out of range, naming the variable', () => {
    const problems = (env: Record<string, string>) => {
      try {
        parseEnv(processIdentityEnv, env);
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return [...(error as ConfigError).problems];
      }
    };
    expect(problems({ WORKER_ID_BASE: '8' })).toEqual([
      expect.stringMatching(/^POD_INDEX: is required with WORKER_ID_BASE/),
    ]);
    expect(problems({ WORKER_ID_BASE: '776', POD_INDEX: '248' })).toEqual([
      expect.stringMatching(/^POD_INDEX: WORKER_ID_BASE 776 \+ POD_INDEX 248 is beyond the last worker id 1023/),
    ]);
    expect(problems({ WORKER_ID: '1024' })).toEqual(['WORKER_ID: must be an integer 0–1023 (got "1024")']);
    expect(problems({ POD_INDEX: '-1' })).toEqual(['POD_INDEX: must be a whole number ≥ 0 (got "-1")']);
    expect(problems({ WORKER_ID_BASE: '776', POD_INDEX: '247' })).toEqual([]);
  });
});

describe('the instance id', () => {
  it('is <service>-<hostname> by default: stable across restarts, so a restarted process re-takes its bus leases at once', () => {
    expect(identity('bonus-ledger', {}).instanceId).toBe('bonus-ledger-host-1');
    expect(identity('bonus-ledger', {}).instanceId).toBe(identity('bonus-ledger', {}).instanceId);
  });

  it('is INSTANCE_ID when set (two processes of one service on one host need it)', () => {
    expect(identity('bonus-ledger', { INSTANCE_ID: 'ledger-b' }).instanceId).toBe('ledger-b');
  });

  it('keeps to the characters and length an instance id may have', () => {
    const id = defaultInstanceId('wallet-dispatcher', `my host/${'x'.repeat(80)}`);
    expect(id).toMatch(/^[A-Za-z0-9_.-]{1,64}$/);
    expect(id.startsWith('wallet-dispatcher-my-host-')).toBe(true);
  });
});
