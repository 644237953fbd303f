/** kafkajs protocol errors as a broker's answers make them, for the tests of how the adapter reads them. */
import kafkajs from 'kafkajs';

const { KafkaJSProtocolError } = kafkajs;

function protocolError(type: string, code: number, retriable: boolean, message: string) {
  return new KafkaJSProtocolError(Object.assign(new Error(message), { type, code, retriable }));
}

/** MESSAGE_TOO_LARGE: a protocol error kafkajs marks not retriable. */
export const tooLarge = () =>
  protocolError('MESSAGE_TOO_LARGE', 10, false, 'The request included a message larger than the max message size');

/** COORDINATOR_LOAD_IN_PROGRESS: what a broker that has just restarted answers for a group it coordinates. */
export const coordinatorLoading = () =>
  protocolError(
    'COORDINATOR_LOAD_IN_PROGRESS',
    14,
    true,
    "The coordinator is loading and hence can't process requests for this group",
  );
