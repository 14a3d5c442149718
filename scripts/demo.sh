#!/usr/bin/env bash
# The main job. Today: encrypts FIPS-197's AES-128 vector with the Chorus core and prints it.
# (The joint-AES demo with local parties replaces this once the relay, SDK and MAESTRO land.)
# Usage: bash scripts/demo.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$CHORUS_ROOT"

ensure_rust
cargo run --release -q -p chorus-core --example aes_fips197
