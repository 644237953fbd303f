import { createRequire } from 'node:module';
import type { AllStreamResolvedEvent, EventStoreDBClient, ReadPosition } from '@eventstore/db-client';
import type { Direction, StreamFilter } from '@reelstream/platform-ports';
import { USER_STREAMS_REGEX } from './stream-names.js';

/*
 * The 6.2.1 client's `readAll` always sends `noFilter` (dist/streams/readAll.js), although the server's
 * Read call takes the same filter options for a read of `$all` as for a subscription. This builds the
 * request the client would, with the filter set, and runs it through the client's own stream creator
 * and `ReadStream`, so the server skips non-matching events instead of sending them all over.
 * Internals of exactly this client version: `package.json` pins it.
 */
const require = createRequire(import.meta.url);

interface Expression {
  setPrefixList(prefixes: string[]): void;
  setRegex(regex: string): void;
}
interface FilterOptions {
  setStreamIdentifier(expression: Expression): void;
  setCount(empty: unknown): void;
  setCheckpointintervalmultiplier(value: number): void;
}
interface Position {
  setCommitPosition(value: string): void;
  setPreparePosition(value: string): void;
}
interface AllOptions {
  setStart(empty: unknown): void;
  setEnd(empty: unknown): void;
  setPosition(position: Position): void;
}
interface Options {
  setAll(all: AllOptions): void;
  setResolveLinks(value: boolean): void;
  setCount(value: string): void;
  setUuidOption(option: { setString(empty: unknown): void }): void;
  setFilter(filter: FilterOptions): void;
  setReadDirection(value: 0 | 1): void;
}
interface ReadRequest {
  setOptions(options: Options): void;
  getOptions(): {
    hasFilter(): boolean;
    getFilter(): { getStreamIdentifier(): { getPrefixList(): string[]; getRegex(): string } };
  };
}
type Constructor<T> = new () => T;
const streamsPb = require('@eventstore/db-client/generated/streams_pb.js') as {
  ReadReq: Constructor<ReadRequest> & {
    Options: Constructor<Options> & {
      AllOptions: Constructor<AllOptions>;
      Position: Constructor<Position>;
      UUIDOption: Constructor<{ setString(empty: unknown): void }>;
      FilterOptions: Constructor<FilterOptions> & { Expression: Constructor<Expression> };
    };
  };
};
const { Empty } = require('@eventstore/db-client/generated/shared_pb.js') as { Empty: Constructor<unknown> };
const { StreamsClient } = require('@eventstore/db-client/generated/streams_grpc_pb.js') as { StreamsClient: unknown };
const { ReadStream } = require('@eventstore/db-client/dist/streams/utils/ReadStream.js') as {
  ReadStream: new (
    create: () => Promise<unknown>,
    convert: unknown,
    options: object,
  ) => AsyncIterable<AllStreamResolvedEvent>;
};
const { convertGrpcEvent } = require('@eventstore/db-client/dist/utils/index.js') as { convertGrpcEvent: unknown };

/** The protected parts of the client the read goes through (the same ones its own `readAll` uses). */
interface ClientInternals {
  GRPCStreamCreator(
    client: unknown,
    debugName: string,
    creator: (grpc: { read(request: ReadRequest, ...args: unknown[]): unknown }) => unknown,
  ): () => Promise<unknown>;
  callArguments(base: object, callOptions: object): unknown[];
}

/** The request for up to `maxCount` events of `$all` from `from` in `direction`, filtered on the server by stream name. */
function filteredReadRequest(
  from: ReadPosition,
  direction: Direction,
  maxCount: number,
  filter: StreamFilter | undefined,
): ReadRequest {
  const { ReadReq } = streamsPb;
  const all = new ReadReq.Options.AllOptions();
  if (from === 'start') all.setStart(new Empty());
  else if (from === 'end') all.setEnd(new Empty());
  else {
    const position = new ReadReq.Options.Position();
    position.setCommitPosition(from.commit.toString(10));
    position.setPreparePosition(from.prepare.toString(10));
    all.setPosition(position);
  }
  const expression = new ReadReq.Options.FilterOptions.Expression();
  const prefixes = filter?.streamPrefixes;
  if (prefixes && prefixes.length > 0) expression.setPrefixList([...prefixes]);
  else expression.setRegex(USER_STREAMS_REGEX);
  const filterOptions = new ReadReq.Options.FilterOptions();
  filterOptions.setStreamIdentifier(expression);
  filterOptions.setCount(new Empty());
  filterOptions.setCheckpointintervalmultiplier(1);
  const uuid = new ReadReq.Options.UUIDOption();
  uuid.setString(new Empty());
  const options = new ReadReq.Options();
  options.setAll(all);
  options.setResolveLinks(false);
  options.setCount(maxCount.toString(10));
  options.setUuidOption(uuid);
  options.setFilter(filterOptions);
  options.setReadDirection(direction === 'forwards' ? 0 : 1);
  const request = new ReadReq();
  request.setOptions(options);
  return request;
}

/** One page of `$all` with the stream filter applied by the server (the adapter checks each event again). */
export async function readAllFiltered(
  client: EventStoreDBClient,
  from: ReadPosition,
  direction: Direction,
  maxCount: number,
  filter: StreamFilter | undefined,
): Promise<AllStreamResolvedEvent[]> {
  const internals = client as unknown as ClientInternals;
  const request = filteredReadRequest(from, direction, maxCount, filter);
  const create = internals.GRPCStreamCreator(StreamsClient, 'readAll', (grpc) =>
    grpc.read(request, ...internals.callArguments({}, { deadline: Infinity })),
  );
  const page: AllStreamResolvedEvent[] = [];
  for await (const resolved of new ReadStream(create, convertGrpcEvent, {})) page.push(resolved);
  return page;
}
