#!/usr/bin/env bash
# Builds the WASM module of the SDK: chorus-wasm for wasm32-unknown-unknown (simd128, from
# .cargo/config.toml), then wasm-bindgen's `web` glue into ts-sdk/wasm/ (one artifact for Node and
# browsers). Idempotent: cargo rebuilds only what changed, and wasm-bindgen runs only when the
# module is newer than its glue. Usage: bash scripts/build-wasm.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CHORUS_ROOT"

ensure_rust
ensure_wasm_bindgen
target_dir="${CARGO_TARGET_DIR:-$CHORUS_ROOT/target}"
cargo build -p chorus-wasm --release --target wasm32-unknown-unknown --target-dir "$target_dir"
module="$target_dir/wasm32-unknown-unknown/release/chorus_wasm.wasm"
out="ts-sdk/wasm"
if [ ! -f "$out/chorus_wasm_bg.wasm" ] || [ ! -f "$out/chorus_wasm.js" ] || [ "$module" -nt "$out/chorus_wasm_bg.wasm" ]; then
  log "wasm-bindgen → $out"
  rm -rf "$out"
  wasm-bindgen --target web --out-dir "$out" "$module"
  touch "$out/chorus_wasm_bg.wasm"
fi
