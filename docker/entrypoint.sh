#!/bin/sh
# The image's entrypoint: the app (or tool) is the first argument, else REELSTREAM_APP; the rest
# of the arguments go to it.
set -eu

usage() {
  cat >&2 <<'USAGE'
usage: IMAGE <app> [arguments…]   (or REELSTREAM_APP=<app>)
apps:  gateway | bonus-ledger | wallet-dispatcher | game-server | operator-sandbox | platform
tools: redrive (wallet re-drive) | kafka-topics | reelstream or reelstream-cli (the reelstream CLI)
or:    node <file> [arguments…]
USAGE
}

if [ "$#" -gt 0 ]; then
  app=$1
  shift
else
  app=${REELSTREAM_APP:-}
fi

case "$app" in
  gateway | bonus-ledger | wallet-dispatcher | game-server | operator-sandbox | platform | reelstream-cli)
    exec node "/app/dist/apps/$app/main.js" "$@" ;;
  redrive) exec node /app/dist/apps/wallet-dispatcher/redrive.js "$@" ;;
  kafka-topics) exec node /app/dist/apps/platform/kafka-topics.js "$@" ;;
  reelstream) exec node /app/dist/apps/reelstream-cli/main.js "$@" ;;
  # Any other Node entry, as the Kubernetes manifests run the apps: `node dist/apps/<app>/main.js`.
  node) exec node "$@" ;;
  '' | -h | --help | help)
    usage
    [ -n "$app" ] && exit 0
    exit 64 ;;
  *)
    echo "unknown app: $app" >&2
    usage
    exit 64 ;;
esac
