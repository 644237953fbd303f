/**
 * A scripted gRPC channel for the EventStoreDB client: a real `EventStoreDBClient` whose stream
 * creator hands the client's own request to a script instead of a server, and whose answers are the
 * client's generated protobuf messages, so its `ReadStream`/`Subscription` and event conversion run
 * for real (no EventStoreDB server can run here).
 */
import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import { EventStoreDBClient } from '@eventstore/db-client';

const require = createRequire(import.meta.url);
type Ctor<T = any> = new () => T; // eslint-disable-line @typescript-eslint/no-explicit-any
const pb = require('@eventstore/db-client/generated/streams_pb.js') as {
  ReadResp: Ctor & {
    ReadEvent: Ctor & { RecordedEvent: Ctor };
    Checkpoint: Ctor;
    CaughtUp: Ctor;
    SubscriptionConfirmation: Ctor;
  };
};
const shared = require('@eventstore/db-client/generated/shared_pb.js') as { UUID: Ctor; StreamIdentifier: Ctor };

export interface ScriptedEvent {
  streamId: string;
  revision: number;
  commit: number;
  type?: string;
  data?: unknown;
}

let ids = 0;
export function eventResponse({ streamId, revision, commit, type = 'Happened', data = {} }: ScriptedEvent): unknown {
  const record = new pb.ReadResp.ReadEvent.RecordedEvent();
  const id = new shared.UUID();
  ids++;
  id.setString(`00000000-0000-4000-8000-${String(ids).padStart(12, '0')}`);
  record.setId(id);
  const stream = new shared.StreamIdentifier();
  stream.setStreamName(Buffer.from(streamId));
  record.setStreamIdentifier(stream);
  record.setStreamRevision(String(revision));
  record.setCommitPosition(String(commit));
  record.setPreparePosition(String(commit));
  const metadata = record.getMetadataMap();
  metadata.set('type', type);
  metadata.set('content-type', 'application/json');
  metadata.set('created', '638000000000000000');
  record.setData(Buffer.from(JSON.stringify(data)));
  record.setCustomMetadata(Buffer.from('{}'));
  const read = new pb.ReadResp.ReadEvent();
  read.setEvent(record);
  read.setCommitPosition(String(commit));
  const response = new pb.ReadResp();
  response.setEvent(read);
  return response;
}

export function checkpointResponse(commit: number): unknown {
  const checkpoint = new pb.ReadResp.Checkpoint();
  checkpoint.setCommitPosition(String(commit));
  checkpoint.setPreparePosition(String(commit));
  const response = new pb.ReadResp();
  response.setCheckpoint(checkpoint);
  return response;
}

export function caughtUpResponse(): unknown {
  const response = new pb.ReadResp();
  response.setCaughtUp(new pb.ReadResp.CaughtUp());
  return response;
}

/** What the scripted server answers one Read call with: its responses, then it ends (or stays open). */
export interface ScriptedCall {
  responses: unknown[];
  /** Subscriptions stay open after their last response; reads end. */
  keepOpen?: boolean;
}

/** A real client wired to the script; `requests` collects every Read request the client sent. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function scriptedClient(answer: (request: any) => ScriptedCall | Promise<ScriptedCall>) {
  const client = EventStoreDBClient.connectionString('esdb://127.0.0.1:1?tls=false');
  const requests: unknown[] = [];
  const streams: PassThrough[] = [];
  const grpc = {
    read(request: unknown) {
      requests.push(request);
      const stream = new PassThrough({ objectMode: true });
      Object.assign(stream, { cancel: () => stream.end() });
      streams.push(stream);
      void Promise.resolve(answer(request)).then(({ responses, keepOpen }) => {
        for (const response of responses) stream.write(response);
        if (!keepOpen) stream.end();
      });
      return stream;
    },
  };
  Object.assign(client, {
    GRPCStreamCreator: (_client: unknown, _name: string, creator: (channel: typeof grpc) => unknown) => async () =>
      creator(grpc),
  });
  return { client, requests, streams };
}
