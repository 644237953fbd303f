import { EventStoreDBClient } from '@eventstore/db-client';
import { SupportedMethods } from '@eventstore/db-client/generated/serverfeatures_pb.js';
import { describe, expect, it } from '@jest/globals';
import { refusedServerVersion, serverVersionOf } from '../src/server-version.js';

describe('the EventStoreDB server version floor (25.0.1)', () => {
  it.each(['25.0.1', '25.0.1.1640', '25.1.0', '26.0.3', '100.0.0'])('accepts %s', (version) => {
    expect(refusedServerVersion(version)).toBeUndefined();
  });

  it.each(['25.0.0', '24.10.4', '23.10.1', '22.10.5', '21.10.11', '5.0.11'])(
    'refuses %s, older than the fix of its checkpoints',
    (version) => {
      expect(refusedServerVersion(version)).toBe(`version ${version} is older than 25.0.1`);
    },
  );

  it('refuses a server that does not say its version', () => {
    expect(refusedServerVersion('unknown')).toMatch(/^its version is not known \("unknown"\)/);
  });
});

describe("the server's version through the pinned client", () => {
  it('is what the ServerFeatures answer says, read on the client the adapter opens', async () => {
    const client = EventStoreDBClient.connectionString('esdb://127.0.0.1:1?tls=false');
    // The client asks the ServerFeatures service through `execute`; here the service answers in-process.
    Object.assign(client, {
      execute: async (_service: unknown, debugName: string, action: (grpc: unknown) => Promise<unknown>) => {
        expect(debugName).toBe('getSupportedMethods');
        return action({
          getSupportedMethods: (_empty: unknown, callback: (error: null, answer: SupportedMethods) => void) =>
            callback(null, new SupportedMethods().setEventStoreServerVersion('24.10.4')),
        });
      },
    });
    const version = await serverVersionOf(client);
    expect(version).toBe('24.10.4');
    expect(refusedServerVersion(version)).toBe('version 24.10.4 is older than 25.0.1');
    await client.dispose();
  });
});
