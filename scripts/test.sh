#!/usr/bin/env bash
# Runs every Chorus test: formatting and lints, Rust (native, incl. the native runner against a real
# relay process), the wasm32 build, then the npm workspaces (the native Node addon, relay, SDK with
# both runtimes, and cross-component tests
# with Node parties, the native runner and a Chromium party).
# Installs what is missing first (wasm32 target, rustfmt and clippy, wasm-bindgen-cli into .tools/,
# Debian chromium and haproxy, npm packages), then checks that the tool install works from an empty
# root (scripts/check-install.sh).
# Usage: ./scripts/test.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CHORUS_ROOT"

ensure_rust
ensure_rust_components
ensure_wasm_bindgen
ensure_chromium
ensure_haproxy
# Debian's openssl makes the private CA and certificates of the addon's TLS relay test.
ensure_debian_package openssl openssl "certificates for the TLS relay test"
ensure_node_deps
bash scripts/check-install.sh

log "cargo fmt --check"
cargo fmt --all -- --check
log "cargo clippy (warnings are errors)"
cargo clippy --workspace --all-targets --release -- -D warnings

log "building the relay (the native runner's relay tests start it as a process)"
npm run build -w @chorus/server
# One build of every target (libraries, tests, benchmarks, the native runner) with one feature
# set: `cargo test` below then reuses it, where a separate `cargo build -p chorus-native` or
# `cargo bench --no-run` (another feature set, another profile) would compile chorus-core again.
log "Rust: every target of the workspace (tests, benchmarks, the native runner), one build"
cargo build --workspace --release --all-targets
log "Rust tests (native)"
cargo test --workspace --release
log "core and bindings build for wasm32-unknown-unknown (simd128)"
cargo build -p chorus-core -p chorus-wasm --release --target wasm32-unknown-unknown

log "npm workspaces: build and test (native addon, relay, SDK with WASM and the addon, cross-component tests in Node and Chromium)"
npm run build --workspaces --if-present
log "wasm32 kernel self-checks in WASM (carry-less products against schoolbook, verification kernels, OT transpose, bit-sliced AES against the aes crate)"
node scripts/bench-wasm.mjs --check
npm test --workspaces --if-present
log "all tests passed"
