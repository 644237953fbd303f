#!/usr/bin/env bash
# `npm run test:kafka-faults`: the adapter's fault cases (libs/platform/messaging-kafka/test/faults)
# and the dispatcher's broker-kill case (apps/wallet-dispatcher/test/broker-faults.e2e.spec.ts) in
# their long form against three Kafka nodes of `npm run infra:kafka`, beside any one-node cluster
# already running (own ports and directory), stopped again however the run ends. One suite at a
# time: each freezes or kills the nodes the other would be using.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

export KAFKA_INFRA_PORT="${KAFKA_INFRA_PORT:-49092}"
export KAFKA_INFRA_RUN_DIR="${KAFKA_INFRA_RUN_DIR:-${REELSTREAM_KAFKA_CACHE:-$HOME/.cache/reelstream/kafka}/run-faults}"

trap 'npm run -s infra:kafka -- stop' EXIT
kafka_brokers="$(npm run -s infra:kafka -- start --brokers 3)"
export "${kafka_brokers?}" # KAFKA_BROKERS=127.0.0.1:…

KAFKA_FAULTS=1 KAFKA_FAULTS_LONG=1 NODE_OPTIONS=--experimental-vm-modules npx jest --runInBand \
  libs/platform/messaging-kafka/test/faults apps/wallet-dispatcher/test/broker-faults.e2e.spec.ts "$@"
