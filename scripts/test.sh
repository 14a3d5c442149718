#!/usr/bin/env bash
# Runs every Chorus test: Rust (native and the wasm32 build), then the npm workspaces.
# Installs what is missing first (wasm32 target, npm packages). Usage: bash scripts/test.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CHORUS_ROOT"

ensure_rust
log "cargo fmt --check"
cargo fmt --all -- --check
log "Rust tests (native)"
cargo test --workspace --release
log "core and bindings build for wasm32-unknown-unknown (simd128)"
cargo build --workspace --release --target wasm32-unknown-unknown
log "benchmarks compile"
cargo bench --workspace --no-run

ensure_node_deps
log "npm workspaces: build and test"
npm run build --workspaces --if-present
npm test --workspaces --if-present
log "all tests passed"
