#!/usr/bin/env bash
# The main job: joint AES-128 with three local Node parties through a Chorus relay, printed next to
# FIPS-197's expected ciphertext; then the same relay keeps serving the browser demo (demo/dist)
# and prints its URL, until Ctrl-C. Installs and builds what is missing first.
# Usage: ./scripts/demo.sh   (CHORUS_DEMO_PORT picks the port, default 8787; CHORUS_DEMO_HOST
# the address, default 127.0.0.1). The test command never runs this serving mode.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CHORUS_ROOT"

ensure_rust
ensure_wasm_bindgen
ensure_node_deps
log "building the relay, the native Node addon, the WASM module, the SDK and the browser demo"
npm run build -w @chorus/server >/dev/null
npm run build -w @chorus/node >/dev/null
npm run build -w @chorus/sdk >/dev/null
npm run build -w @chorus/demo >/dev/null
exec node demo/bin/local-parties.mjs --static demo/dist --serve \
  --host "${CHORUS_DEMO_HOST:-127.0.0.1}" --port "${CHORUS_DEMO_PORT:-8787}"
