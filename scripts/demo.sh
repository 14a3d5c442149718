#!/usr/bin/env bash
# The main job: joint AES-128 with three local Node parties through a Chorus relay, printed next to
# FIPS-197's expected ciphertext. Installs and builds what is missing first.
# (The browser demo served by the relay follows with the demo issue.) Usage: bash scripts/demo.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CHORUS_ROOT"

ensure_rust
ensure_wasm_bindgen
ensure_node_deps
log "building the relay, the WASM module and the SDK"
npm run build -w @chorus/server >/dev/null
npm run build -w @chorus/sdk >/dev/null
node demo/bin/local-parties.mjs
