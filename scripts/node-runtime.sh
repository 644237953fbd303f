#!/usr/bin/env bash
# Prints the install prefix of the Node.js the project runs on (the version in .node-version),
# fetching it first when it is not cached. The binary and its headers come from the npm
# registry's binary package node-linux-<arch> (no other download site is needed); npm itself is
# the machine's. Use it as .ci/run does:
#   prefix=$(bash scripts/node-runtime.sh)
#   export PATH="$prefix/bin:$PATH" npm_config_nodedir="$prefix"
# npm_config_nodedir makes node-gyp build native addons (better-sqlite3) against these headers.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(tr -d ' \n\r' < .node-version)
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) echo "node-runtime: no node-linux package for $(uname -m)" >&2; exit 1 ;;
esac
cache="${XDG_CACHE_HOME:-$HOME/.cache}/reelstream-node"
prefix="$cache/node-v$version-linux-$arch"

if [ ! -x "$prefix/bin/node" ]; then
  mkdir -p "$cache"
  work=$(mktemp -d "$cache/fetch.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && npm pack --silent "node-linux-$arch@$version" > /dev/null)
  tar -xzf "$work"/node-linux-"$arch"-"$version".tgz -C "$work"
  # The package holds bin/node and include/node: the layout of an official tarball's prefix.
  rm -rf "$prefix"
  mv "$work/package" "$prefix"
fi

actual=$("$prefix/bin/node" --version)
if [ "$actual" != "v$version" ]; then
  echo "node-runtime: $prefix/bin/node is $actual, expected v$version" >&2
  exit 1
fi
echo "$prefix"
