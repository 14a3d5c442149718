#!/usr/bin/env bash
# Starts a local relay cluster: N relay processes behind HAProxy on one port (default 8787),
# installing Debian's haproxy and building the relay first when needed. Runs until Ctrl-C.
# Usage: ./scripts/relay-cluster.sh N [--port P] [--host H] [-- <relay flags>]
# See scripts/relay-cluster.mjs for what it prints and server/README.md for the production setup.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CHORUS_ROOT"

ensure_haproxy
ensure_node_deps
[ -f server/dist/cli.js ] || npm run build -w @chorus/server >/dev/null
exec node scripts/relay-cluster.mjs "$@"
