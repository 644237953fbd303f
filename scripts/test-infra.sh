#!/usr/bin/env bash
# `npm run test:infra`: starts Kafka and EventStoreDB from docker/compose.yml, runs the EventStore and
# MessageBus contract suites (and the adapters' own tests) against them, and tears the servers down
# again however the run ends.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
compose_file="$repo/docker/compose.yml"

if ! command -v docker > /dev/null 2>&1; then
  echo "test:infra needs Docker with the compose plugin (docker compose), and docker is not installed." >&2
  echo "Install Docker, or run the contract suites against servers of your own:" >&2
  echo "  EVENTSTORE_URL='esdb://host:2113?tls=false' KAFKA_BROKERS=host:9092 NODE_OPTIONS=--experimental-vm-modules npx jest --selectProjects eventstore-esdb messaging-kafka" >&2
  exit 127
fi
if ! docker compose version > /dev/null 2>&1; then
  echo "test:infra needs the Docker compose plugin: 'docker compose version' failed." >&2
  exit 127
fi
if ! docker info > /dev/null 2>&1; then
  echo "test:infra cannot reach a Docker engine ('docker info' failed): start Docker and try again." >&2
  exit 1
fi

compose() {
  docker compose --project-name reelstream -f "$compose_file" "$@"
}

cleanup() {
  local status=$?
  echo "test:infra: stopping the servers" >&2
  compose down --volumes --remove-orphans > /dev/null 2>&1 || echo "test:infra: 'docker compose down' failed; check 'docker ps'" >&2
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

echo "test:infra: starting Kafka and EventStoreDB (docker/compose.yml)" >&2
compose up -d --wait

cd "$repo"
# The cluster contract's paused-broker case freezes the broker container and thaws it again.
EVENTSTORE_URL='esdb://localhost:2113?tls=false' \
  KAFKA_BROKERS='localhost:9092' \
  KAFKA_PAUSE_COMMAND="docker compose --project-name reelstream -f '$compose_file' pause kafka" \
  KAFKA_RESUME_COMMAND="docker compose --project-name reelstream -f '$compose_file' unpause kafka" \
  NODE_OPTIONS=--experimental-vm-modules \
  npx jest --selectProjects eventstore-esdb messaging-kafka "$@"
